package org.salgate.transport.rmi;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * Java RMI, the way the original SAL served its clients: the agent exports an {@link AgentRemote}
 * and hands its stub to a client that asks its port for it (it runs no registry); the client
 * reaches it, and the {@link SessionRemote} it opens, only where it dialled and with its own TLS
 * settings, and polls the session for what the agent sends (the client listens on no socket). Frames are the connection codec's bytes; every
 * exported object has a JEP 290 filter admitting only what the protocol carries. Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 */
public final class RmiTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "rmi";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return SingleUseServer.classesPresent(getClass(), "java.rmi.Remote");
    }

    @Override
    public String description() {
        return "Java RMI, the client polling for the frames the agent sends (the original SAL's transport)";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new RmiTransportServer(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new RmiTransportClient(options);
    }
}
