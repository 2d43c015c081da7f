package org.salgate.transport.netty;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.wire.FrameReader;
import org.salgate.wire.MemoryBudget;

/** A Netty server: a {@link ChannelServer} whose connections carry framed salgate sessions. */
final class NettyTransportServer implements TransportServer {

    private final ServerOptions options;
    private final AtomicLong sessionIds = new AtomicLong();
    private final MemoryBudget budget;
    private final NettyIo io;
    private ChannelServer server;
    private boolean started;
    private boolean closed;

    /** On the I/O mechanism {@code io}, or the process's if null. */
    NettyTransportServer(ServerOptions options, NettyIo io) {
        this.options = Objects.requireNonNull(options, "options");
        this.io = io;
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
    }

    @Override
    public synchronized void start(ServerHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (started) {
            throw new IllegalStateException("this server was started already; create a new one to start again");
        }
        started = true;
        server = ChannelServer.bind(io != null ? io : EventLoops.current(), options, "netty", ch -> {
            NettySession session = new NettySession(sessionIds.incrementAndGet(), ch, options, budget);
            TlsHandlers.addServer(ch, options.tls());
            ch.pipeline().addLast("session", new ServerChannelHandler(handler, session,
                    new FrameReader(session.codec(), options.maxFrameBytes(), session.budget())));
        });
    }

    @Override
    public synchronized InetSocketAddress localAddress() {
        if (server == null) {
            throw new IllegalStateException("the server is not started");
        }
        return server.localAddress();
    }

    @Override
    public synchronized void close() {
        if (closed || server == null) {
            closed = true;
            return;
        }
        closed = true;
        server.close();
    }
}
