package org.salgate.bench.server;

import java.io.IOException;

import org.salgate.agent.Agent;
import org.salgate.transport.tls.TlsConfig;

/**
 * Starts the real agent on 127.0.0.1, a free port, the given transport and the default platform
 * (the dummy sensors plus the OS sensors: 20 + 8 in the paper's setup).
 */
final class AgentServer {

    private AgentServer() {}

    static Agent start(String transport, int dummySensors, TlsConfig tls) throws IOException {
        return Agent.builder().transport(transport).host("127.0.0.1").port(0).dummySensors(dummySensors)
                .agentId("bench-agent-" + transport).tls(tls)
                .serverOptions(o -> o.writeWaterMarks(BenchProtocol.WRITE_LOW_WATER_BYTES,
                        BenchProtocol.WRITE_HIGH_WATER_BYTES))
                .start();
    }
}
