package org.salgate.transport.rmi;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * Java RMI, the way the original SAL served its clients: the agent starts its own registry and
 * binds an {@link AgentRemote} in it; a client looks it up, exports a {@link CallbackRemote} to
 * which the agent pushes what it sends, and gets a {@link SessionRemote} to call, which returns the
 * answer when it is ready within a short wait. Frames are
 * the connection codec's bytes, so every codec works. Every exported object has a JEP 290
 * deserialization filter that admits only what this protocol carries. The agent's registry serves
 * lookups only: a bind, rebind or unbind from any caller, on this machine too, is refused and
 * logged. A client uses the agent object it looked up only if it leads to the registry's own host
 * and port (with TLS, over TLS with the client's settings). A connection that sends nothing for the
 * hello timeout is closed. Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 *
 * <p>Server properties: {@value #HOSTNAME} (the address written into stubs; default the bound
 * host, or RMI's default when bound to a wildcard address). Each session's pushes are bounded
 * by its {@link org.salgate.transport.OutboundQueue} (see {@link ServerOptions#maxQueuedBytes()}).
 * Client property {@value #CALLBACK_HOST} (the address the agent calls back; default this
 * machine's address on the route to the agent).
 */
public final class RmiTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "rmi";
    /** The name the agent object is bound under in the agent's registry. */
    public static final String BINDING_NAME = "salgate-agent";

    /** Server property: the host clients are told to connect to. */
    public static final String HOSTNAME = "hostname";
    /** Client property: the address the client's callback object listens on. */
    public static final String CALLBACK_HOST = "callbackHost";

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
        return "Java RMI with a callback object for pushed frames (the original SAL's transport)";
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
