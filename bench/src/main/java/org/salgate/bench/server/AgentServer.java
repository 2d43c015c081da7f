package org.salgate.bench.server;

import java.io.IOException;
import java.time.Duration;

import org.salgate.agent.Agent;
import org.salgate.transport.tls.TlsConfig;

/**
 * Starts the real agent on 127.0.0.1, a free port, the given transport and the default platform
 * (the dummy sensors plus the OS sensors: 20 + 8 in the paper's setup).
 */
final class AgentServer {

    private AgentServer() {}

    static Agent start(String transport, int dummySensors, TlsConfig tls) throws IOException {
        return start(transport, dummySensors, tls, null, null);
    }

    /**
     * As {@link #start(String, int, TlsConfig)}, with the session limits set where given (null keeps
     * the agent's default).
     *
     * @param maxSessions the most sessions served at once ({@code --max-sessions})
     * @param idleTimeout how long a silent session lives ({@code --idle-timeout-ms}), zero for ever
     */
    static Agent start(String transport, int dummySensors, TlsConfig tls, Integer maxSessions, Duration idleTimeout)
            throws IOException {
        return Agent.builder().transport(transport).host("127.0.0.1").port(0).dummySensors(dummySensors)
                .agentId("bench-agent-" + transport).tls(tls)
                .serverOptions(o -> {
                    o.writeWaterMarks(BenchProtocol.WRITE_LOW_WATER_BYTES, BenchProtocol.WRITE_HIGH_WATER_BYTES);
                    if (maxSessions != null) {
                        o.maxSessions(maxSessions);
                    }
                    if (idleTimeout != null) {
                        o.idleTimeout(idleTimeout);
                    }
                })
                .start();
    }
}
