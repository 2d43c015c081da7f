package org.salgate.transport.rmi;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * Java RMI, the way the original SAL served its clients: the agent binds an {@link AgentRemote} in
 * its own registry (which serves lookups only); a client looks it up, checks it leads to that
 * registry's host and port, and calls a {@link SessionRemote}, which it also polls for what the
 * agent sends (the client listens on no socket). Frames are the connection codec's bytes; every
 * exported object has a JEP 290 filter admitting only what the protocol carries. Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 */
public final class RmiTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "rmi";
    /** The name the agent object is bound under in the agent's registry. */
    public static final String BINDING_NAME = "salgate-agent";

    /** Server property: the host clients are told to connect to (default the bound host; none on a wildcard). */
    public static final String HOSTNAME = "hostname";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return ModuleLayer.boot().findModule("java.rmi").isPresent()
                || getClass().getClassLoader().getResource("java/rmi/Remote.class") != null;
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
