package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.grpc.GrpcTransportProvider;

/**
 * The grpc agent serving streaming clients while raw HTTP/2 peers hold unfinished messages, open
 * streams they never read, reset streams as fast as they can, and sit idle or send bad prefaces.
 */
class GrpcSoakUnderAttackTest extends AbstractSoakUnderAttackTest {

    private static final long MIB = 1024 * 1024;

    @Override
    protected TransportProvider provider() {
        return Transports.byName(GrpcTransportProvider.NAME);
    }

    @Override
    protected Map<String, Attack> attacks() {
        Map<String, Attack> attacks = new LinkedHashMap<>();
        attacks.put("unfinished messages", port -> GrpcAttacks.unfinishedMessages(port, GrpcRawConnection.ADD_SENSOR, null,
                50, 15 * (int) MIB, 15 * MIB - 1, Duration.ofSeconds(5), Duration.ofSeconds(2)));
        attacks.put("unread streams", port -> GrpcAttacks.unreadStreams(port, null, 1_000, 64 * 1024,
                Duration.ofSeconds(5)));
        attacks.put("rapid reset", port -> GrpcAttacks.rapidReset(port, GrpcRawConnection.SESSION,
                Duration.ofSeconds(5), 2_000_000, 100));
        attacks.put("idle connection", port -> GrpcAttacks.idleConnection(port, Duration.ofSeconds(15)));
        attacks.put("bad prefaces", port -> GrpcAttacks.badPrefaces(port, Duration.ofSeconds(15)));
        return attacks;
    }
}
