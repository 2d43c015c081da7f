package org.salgate.transport.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;

/**
 * The server of the netty and http transports: an acceptor thread, {@link ServerOptions#ioThreads()}
 * I/O threads, TLS first in each pipeline when the options have it, one {@link MemoryBudget} for all
 * the connections; the transport sets up the rest of each pipeline.
 */
public abstract class ChannelServer extends SingleUseServer {

    private static final long CLOSE_CONNECTIONS_MILLIS = 2_000;

    protected final ServerOptions options;
    protected final MemoryBudget budget;
    private final String name;
    private final AtomicLong sessionIds = new AtomicLong();

    /** @param name names the threads ({@code salgate-NAME-io}) and the log's lines */
    protected ChannelServer(ServerOptions options, String name) {
        this.options = Objects.requireNonNull(options, "options");
        this.name = name;
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
    }

    /** Sets up an accepted connection's pipeline, after TLS. */
    protected abstract void initChannel(SocketChannel ch, ServerHandler handler);

    /** Runs once the connections are closed, before the threads stop; nothing by default. */
    protected void connectionsClosed() {}

    /** The next session's number. */
    protected final long nextSessionId() {
        return sessionIds.incrementAndGet();
    }

    /**
     * Listens; closing closes every connection (waiting unless on the server's threads), then stops
     * the threads. A taken port's cause is a {@link BindException}.
     */
    @Override
    protected Bound bind(ServerHandler handler) throws IOException {
        String where = options.host() + ":" + options.port();
        EventLoopGroup acceptor = NettyIo.group(1, "salgate-" + name + "-accept", false);
        EventLoopGroup workers = NettyIo.group(options.ioThreads(), "salgate-" + name + "-io", false);
        ChannelGroup channels = new DefaultChannelGroup("salgate-" + name, GlobalEventExecutor.INSTANCE);
        ChannelFuture bound = new ServerBootstrap()
                .group(acceptor, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.ALLOCATOR, NettyIo.ALLOCATOR)
                .handler(NettyIo.acceptPacer(name + " server " + where))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, NettyIo.ALLOCATOR)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(options.writeLowWaterBytes(), options.writeHighWaterBytes()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        NettyIo.addServerTls(ch, options.tls());
                        ChannelServer.this.initChannel(ch, handler);
                    }
                })
                .bind(options.host(), options.port()).awaitUninterruptibly();
        channels.add(bound.channel());
        if (!bound.isSuccess()) {
            NettyIo.shutdown(acceptor, workers);
            throw new IOException("cannot listen on " + where + ": " + bound.cause().getMessage()
                    + "; choose another port or stop what uses it", bound.cause());
        }
        return new Bound((InetSocketAddress) bound.channel().localAddress(), () -> {
            var closing = channels.close(); // the listening channel first, then the connections
            if (!NettyIo.inGroup(acceptor) && !NettyIo.inGroup(workers)) {
                closing.awaitUninterruptibly(CLOSE_CONNECTIONS_MILLIS);
            }
            try {
                connectionsClosed();
            } finally {
                NettyIo.shutdown(acceptor, workers);
            }
        });
    }

    /** A session on {@code ch} drawing on the server's budget, its queue written by {@code carrier}. */
    protected final ChannelSession newSession(Channel ch, ChannelWriter.Carrier carrier) {
        return new ChannelSession(nextSessionId(), ch, options, budget, carrier);
    }

    /** A server session on one channel, its queue drained by a {@link ChannelWriter}. */
    public static final class ChannelSession extends QueuedSession {

        private final Channel channel;
        private final ChannelWriter writer;

        ChannelSession(long id, Channel channel, ServerOptions options, MemoryBudget budget,
                       ChannelWriter.Carrier carrier) {
            super(id, options, budget);
            this.channel = channel;
            this.writer = new ChannelWriter(channel, queue(), carrier);
        }

        @Override
        public String remoteAddress() {
            SocketAddress address = channel.remoteAddress();
            return address == null ? "unknown" : address.toString();
        }

        @Override
        protected void startWriting() {
            writer.wake();
        }

        @Override
        protected void abort(Throwable cause) {
            writer.fail(cause);
        }

        @Override
        public boolean isOpen() {
            return channel.isActive();
        }

        @Override
        public void close() {
            writer.closeAfterFlush();
        }
    }
}
