package org.salgate.transport.mina;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The Apache MINA 2 transport, named {@value #NAME}: NIO sockets carrying length-prefixed frames.
 * The server has one acceptor thread, {@link ServerOptions#ioThreads()} I/O processor threads (the
 * number of cores when 0), on which a session's events reach the handler in order, and as many that
 * write busy sessions' next batches. Each client has its own connector and one processor thread.
 */
public final class MinaTransportProvider implements TransportProvider {

    /** The name of this transport. */
    public static final String NAME = "mina";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Apache MINA 2 NIO sockets, length-prefixed frames";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new MinaServer(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new MinaClient(options);
    }
}
