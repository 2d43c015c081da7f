package org.salgate.transport.netty;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;

/** A Netty server: a {@link ChannelServer} whose connections carry framed salgate sessions. */
final class NettyTransportServer implements TransportServer {

    /**
     * One read per connection per turn of its event loop, not Netty's 16: a peer that sends
     * requests as fast as they are taken then costs the loop one read's work before the loop's
     * other connections are served, so a normal client sharing the loop with such peers is still
     * greeted promptly.
     */
    private static final RecvByteBufAllocator ONE_READ_PER_TURN = new AdaptiveRecvByteBufAllocator()
            .maxMessagesPerRead(1);

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
            ch.config().setRecvByteBufAllocator(ONE_READ_PER_TURN);
            TlsHandlers.addServer(ch, options.tls());
            NettySession session = new NettySession(sessionIds.incrementAndGet(), ch, options, budget,
                    ChannelWriter.LENGTH_PREFIXED);
            // however the channel ends, even before it was active, its account in the budget closes with it
            ch.closeFuture().addListener(f -> session.discardWaiting());
            ch.pipeline().addLast("session", new ServerChannelHandler(handler, session));
        });
    }

    /** What the connections draw on together; tests read it. */
    MemoryBudget budget() {
        return budget;
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
        if (!closed && server != null) {
            server.close();
        }
        closed = true;
    }
}
