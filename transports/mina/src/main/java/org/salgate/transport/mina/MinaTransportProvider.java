package org.salgate.transport.mina;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The Apache MINA 2 transport, named {@value #NAME}: NIO sockets carrying length-prefixed frames
 * (see {@link org.salgate.wire.Framing}), cut by the shared {@link org.salgate.transport.FrameReader} and
 * written from the session's {@link org.salgate.transport.OutboundQueue}, which bounds what a slow
 * client costs (see {@link org.salgate.transport.ServerOptions#maxQueuedBytes()}).
 *
 * <p>Threads: the server has one acceptor thread and {@link ServerOptions#ioThreads()} I/O
 * processor threads (the number of cores when 0). There is no executor filter: a session's events
 * run on the one processor thread it is bound to, so they reach the
 * {@link org.salgate.transport.ServerHandler} in order and never concurrently. Each client has its
 * own connector and a single processor thread, on which its handler runs.
 *
 * <p>Server properties ({@link ServerOptions#properties()}):
 * <ul>
 *   <li>{@value MinaServer#WRITE_TIMEOUT_PROPERTY}: seconds a session may hold unsent data without
 *       any write progress before it is closed, default {@value MinaServer#DEFAULT_WRITE_TIMEOUT_SECONDS};
 *       0 disables the check.</li>
 * </ul>
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
