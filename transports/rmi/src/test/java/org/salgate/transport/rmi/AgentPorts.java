package org.salgate.transport.rmi;

import java.io.IOException;

/** Reaching an agent's port as the client does. */
final class AgentPorts {

    private AgentPorts() {}

    /** A client's socket factory for the agent at 127.0.0.1:{@code port}, without TLS. */
    static RmiClientSocketFactory sockets(int port) {
        return RmiClientSocketFactory.client("127.0.0.1", port, 5_000, null);
    }

    /** The agent at 127.0.0.1:{@code port}, fetched as the client does, reached through {@code sockets}. */
    static AgentRemote agent(RmiClientSocketFactory sockets, int port) throws IOException {
        try (RmiClientSocketFactory.Scope reading = sockets.reading()) {
            return RmiTransportClient.fetchAgent(sockets, "127.0.0.1:" + port, 5_000);
        }
    }

    /** A session on the agent at 127.0.0.1:{@code port}, opened through the remote interface alone. */
    static SessionRemote openSession(int port) throws IOException {
        RmiClientSocketFactory sockets = sockets(port);
        AgentRemote agent = agent(sockets, port);
        try (RmiClientSocketFactory.Scope reading = sockets.reading()) {
            return agent.open();
        }
    }
}
