package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.grpc.GrpcTransportProvider;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.netty.NettyIo;
import org.salgate.transport.netty.NettyTransportProvider;

/**
 * The agent program (a child JVM, see {@link AgentProcess}) names the I/O mechanism its
 * Netty-based transports run on, and does not start on one asked for that it cannot use.
 */
class NettyIoAgentTest {

    @Test
    @Timeout(120)
    void theAgentLogNamesTheMechanismOfTheNettyHttpAndGrpcTransports() throws Exception {
        String expected = NettyIo.current().describe();
        for (String transport : List.of(NettyTransportProvider.NAME, HttpTransportProvider.NAME,
                GrpcTransportProvider.NAME)) {
            try (AgentProcess agent = AgentProcess.start(transport, 0)) {
                List<String> lines = agent.outputLines();
                assertTrue(lines.stream().anyMatch(l -> l.endsWith(transport + " transport on " + expected)),
                        transport + ": " + lines);
            }
        }
    }

    @Test
    @Timeout(120)
    void anAgentAskedForAnUnknownMechanismDoesNotStartAndSaysWhy() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> AgentProcess.start(
                NettyTransportProvider.NAME, 0, List.of("-D" + NettyIo.PROPERTY + "=kqueue")).close());
        assertTrue(e.getMessage().contains("the agent could not start on 127.0.0.1:0: salgate.netty.io=kqueue"
                + " is not an I/O mechanism; use one of auto, epoll, io_uring, nio"), e.getMessage());
    }
}
