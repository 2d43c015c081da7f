package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.netty.NettyTransportProvider;

/** The netty agent serving streaming clients while framed attackers flood it and hoard unfinished frames. */
class NettySoakUnderAttackTest extends AbstractSoakUnderAttackTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(NettyTransportProvider.NAME);
    }

    @Override
    protected Map<String, Attack> attacks() {
        Map<String, Attack> attacks = new LinkedHashMap<>();
        attacks.put("flood without reading", port -> FramedAttacks.floodWithoutReading(port, 10, Duration.ofSeconds(5)));
        attacks.put("unfinished frames", port -> FramedAttacks.holdUnfinishedFrames(port, 20, 15 << 20, 4 << 20,
                Duration.ofSeconds(3)));
        attacks.put("frame before the hello", port -> FramedAttacks.closedForAFrameBeforeTheHello(port, 15 << 20,
                1 << 20, Duration.ofSeconds(3)));
        attacks.put("idle connections", port -> {
            try (IdleConnections idle = new IdleConnections()) {
                idle.burst(port, 200, 10_000);
                Thread.sleep(2_000);
            }
        });
        return attacks;
    }
}
