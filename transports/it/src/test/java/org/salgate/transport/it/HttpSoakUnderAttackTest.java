package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import java.net.Socket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.http.HttpTransportProvider;

/**
 * The http agent serving streaming WebSocket clients while every HTTP attack runs against it:
 * pipelined floods, unfinished and slow bodies, unread pings, partial and fragmented WebSocket
 * messages, and a foreign page's requests.
 */
class HttpSoakUnderAttackTest extends AbstractSoakUnderAttackTest {

    private static final Duration ROUND = Duration.ofSeconds(5);

    @Override
    protected TransportProvider provider() {
        return Transports.byName(HttpTransportProvider.NAME);
    }

    @Override
    protected Map<String, Attack> attacks() {
        Map<String, Attack> attacks = new LinkedHashMap<>();
        attacks.put("pipelined flood", port -> HttpAttacks.pipelinedFlood(port,
                HttpAttacks.get("/api/openapi.json", port), ROUND));
        attacks.put("unfinished bodies", port -> {
            try (HttpAttacks.Peers peers = HttpAttacks.unfinishedBodies(port, 20, 15 << 20, 2 << 20, ROUND)) {
                Thread.sleep(ROUND.toMillis());
            }
        });
        attacks.put("slow bodies", port -> {
            try (HttpAttacks.Peers peers = HttpAttacks.slowBodies(port, 20, ROUND)) {
                // closed when the round ends
            }
        });
        attacks.put("unread pings", port -> HttpAttacks.pingFlood(port, ROUND));
        attacks.put("partial messages", port -> {
            try (HttpAttacks.Peers peers = HttpAttacks.partialFrames(port, 10, 15 << 20, 2 << 20, "", ROUND)) {
                Thread.sleep(ROUND.toMillis());
            }
        });
        attacks.put("empty fragments", port -> {
            try (Socket socket = HttpAttacks.emptyFragments(port, 100_000, "")) {
                HttpAttacks.closeCode(socket, ROUND);
            }
        });
        attacks.put("a foreign page", port -> {
            HttpAttacks.exchange(port, "DELETE /api/sensors/DUMMY_0 HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n");
            HttpAttacks.exchange(port, "GET /api/sensors HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
            Thread.sleep(200);
        });
        return attacks;
    }
}
