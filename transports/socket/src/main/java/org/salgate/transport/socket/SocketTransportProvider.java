package org.salgate.transport.socket;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The blocking-socket baseline: {@link java.net.Socket}s carrying length-prefixed frames (see
 * {@link org.salgate.wire.Framing}), a reader and a writer thread per session, whose outbound
 * bytes its {@link org.salgate.transport.OutboundQueue} bounds. Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 */
public final class SocketTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "socket";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int priority() {
        return 1;
    }

    @Override
    public String description() {
        return "blocking java.net sockets, a thread per connection (the baseline)";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new SocketTransportServer(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new SocketTransportClient(options);
    }
}
