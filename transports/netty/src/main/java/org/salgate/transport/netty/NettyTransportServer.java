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
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.wire.FrameBudget;
import org.salgate.wire.FrameReader;

/** A Netty server: one acceptor thread and {@link ServerOptions#ioThreads()} I/O threads. */
final class NettyTransportServer implements TransportServer {

    /** How long closing waits for the sessions to close before stopping the threads regardless. */
    private static final long CLOSE_SESSIONS_MILLIS = 2_000;

    private final ServerOptions options;
    private final AtomicLong sessionIds = new AtomicLong();
    private final FrameBudget frameBudget;
    private final ChannelGroup sessions = new DefaultChannelGroup("salgate-sessions", GlobalEventExecutor.INSTANCE);
    private EventLoopGroup acceptor;
    private EventLoopGroup workers;
    private Channel serverChannel;
    private boolean started;
    private boolean closed;

    NettyTransportServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.frameBudget = new FrameBudget(options.limits().maxBufferedBytes());
    }

    @Override
    public synchronized void start(ServerHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (started) {
            throw new IllegalStateException("this server was started already; create a new one to start again");
        }
        started = true;
        acceptor = EventLoops.create(1, "salgate-netty-accept", false);
        workers = EventLoops.create(options.ioThreads(), "salgate-netty-io", false);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptor, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(new AcceptPacer("netty server " + options.host() + ":" + options.port()))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(options.writeLowWaterBytes(), options.writeHighWaterBytes()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        NettySession session = new NettySession(sessionIds.incrementAndGet(), ch, options);
                        sessions.add(ch);
                        TlsHandlers.addServer(ch, options.tls());
                        ch.pipeline().addLast("session", new ServerChannelHandler(handler, session,
                                new FrameReader(session.codec(), options.maxFrameBytes(), frameBudget)));
                    }
                });
        ChannelFuture bound = bootstrap.bind(options.host(), options.port()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            shutdownGroups();
            Throwable cause = bound.cause();
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                    + cause.getMessage() + "; choose another port or stop what uses it", cause);
        }
        serverChannel = bound.channel();
    }

    @Override
    public synchronized InetSocketAddress localAddress() {
        if (serverChannel == null) {
            throw new IllegalStateException("the server is not started");
        }
        return (InetSocketAddress) serverChannel.localAddress();
    }

    @Override
    public synchronized void close() {
        if (closed || !started) {
            closed = true;
            return;
        }
        closed = true;
        EventLoops.stopServer(serverChannel, sessions, CLOSE_SESSIONS_MILLIS, acceptor, workers);
        shutdownGroups();
    }

    private void shutdownGroups() {
        EventLoops.shutdown(acceptor);
        EventLoops.shutdown(workers);
    }
}
