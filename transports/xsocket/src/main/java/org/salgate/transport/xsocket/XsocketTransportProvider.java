package org.salgate.transport.xsocket;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The xSocket 2.8 transport, named {@value #NAME}: non-blocking connections carrying
 * length-prefixed frames (see {@link org.salgate.wire.Framing}), read with xSocket's mark/reset
 * idiom and written with {@code FlushMode.ASYNC}.
 *
 * <p>Threads: the server's handler is {@code @Execution(NONTHREADED)}, so a connection's events run
 * on its xSocket dispatcher thread, serialized per connection by xSocket's task queue: in order and
 * never concurrently. xSocket sizes its dispatcher pools from system properties only
 * ({@code org.xsocket.connection.server.dispatcher.initialCount}, default 2), so
 * {@link ServerOptions#ioThreads()} is ignored. A client cuts frames on xSocket's shared client
 * dispatcher and hands them to its handler on its own delivery thread, so a handler that blocks
 * stalls only its connection, which stops receiving once its queue holds the client's limit of
 * unread bytes.
 *
 * <p>Outbound bytes are bounded by each connection's {@link org.salgate.transport.OutboundQueue}
 * (see {@link ServerOptions#maxQueuedBytes()}). Client property:
 * {@value XsocketClient#READ_BUFFER_PROPERTY}, the unread bytes a client buffers before it stops
 * reading (default {@value XsocketClient#DEFAULT_READ_BUFFER_BYTES}; a single larger frame is still
 * received whole).
 *
 * <p>xSocket logs through {@code java.util.logging}; unless a level was configured for the
 * {@code org.xsocket} logger, this transport sets it to WARNING.
 */
public final class XsocketTransportProvider implements TransportProvider {

    /** The name of this transport. */
    public static final String NAME = "xsocket";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "xSocket 2.8 non-blocking connections, length-prefixed frames";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        XsocketLogging.quiet();
        return new XsocketServer(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        XsocketLogging.quiet();
        return new XsocketClient(options);
    }
}
