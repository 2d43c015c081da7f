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
import io.netty.channel.unix.Errors;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.function.Consumer;
import org.salgate.transport.ServerOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening side of the transports on Netty (netty, http): one acceptor thread and
 * {@link ServerOptions#ioThreads()} I/O threads, failed accepts paced by an {@link AcceptPacer},
 * the options' outbound water marks, and on close every connection closed before the threads stop.
 * The transport gives what each accepted connection's pipeline holds.
 */
public final class ChannelServer {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelServer.class);

    /** How long closing waits for the connections to close before stopping the threads regardless. */
    private static final long CLOSE_CONNECTIONS_MILLIS = 2_000;

    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final ChannelGroup connections;
    private final Channel serverChannel;

    private ChannelServer(EventLoopGroup acceptor, EventLoopGroup workers, ChannelGroup connections, Channel channel) {
        this.acceptor = acceptor;
        this.workers = workers;
        this.connections = connections;
        this.serverChannel = channel;
    }

    /** As {@link #bind(NettyIo, ServerOptions, String, Consumer)}, on the process's I/O mechanism. */
    public static ChannelServer bind(ServerOptions options, String name, Consumer<SocketChannel> pipeline)
            throws IOException {
        return bind(EventLoops.current(), options, name, pipeline);
    }

    /**
     * Listens on the options' host and port; {@code name} names the threads ({@code salgate-NAME-io})
     * and the log's lines, and {@code pipeline} sets up each accepted connection.
     *
     * @throws IOException if it cannot listen there, saying why; a taken port's cause is a {@link BindException}
     */
    public static ChannelServer bind(NettyIo io, ServerOptions options, String name, Consumer<SocketChannel> pipeline)
            throws IOException {
        String where = options.host() + ":" + options.port();
        EventLoopGroup acceptor = EventLoops.create(io, 1, "salgate-" + name + "-accept", false);
        EventLoopGroup workers = EventLoops.create(io, options.ioThreads(), "salgate-" + name + "-io", false);
        ChannelGroup connections = new DefaultChannelGroup("salgate-" + name, GlobalEventExecutor.INSTANCE);
        ChannelFuture bound = new ServerBootstrap()
                .group(acceptor, workers)
                .channel(io.serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.ALLOCATOR, Buffers.ALLOCATOR)
                .handler(new AcceptPacer(name + " server " + where))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, Buffers.ALLOCATOR)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(options.writeLowWaterBytes(), options.writeHighWaterBytes()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.add(ch);
                        pipeline.accept(ch);
                    }
                })
                .bind(options.host(), options.port()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            EventLoops.shutdown(acceptor);
            EventLoops.shutdown(workers);
            Throwable cause = bound.cause();
            if (cause instanceof Errors.NativeIoException && !(cause instanceof BindException)) {
                // epoll and io_uring report a taken port as a native error; callers tell it by the class, as on NIO
                cause = new BindException(cause.getMessage()).initCause(cause);
            }
            throw new IOException("cannot listen on " + where + ": " + cause.getMessage()
                    + "; choose another port or stop what uses it", cause);
        }
        LOG.info("{} transport on {}", name, io.describe());
        return new ChannelServer(acceptor, workers, connections, bound.channel());
    }

    /** The address it listens on. */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Stops listening, closes every connection (waiting a little for them) and stops the threads. */
    public void close() {
        close(() -> { });
    }

    /**
     * As {@link #close()}, running {@code afterConnections} once the connections are closed, before
     * the threads stop. Called from one of the server's own threads it does not wait, which would never end.
     */
    public void close(Runnable afterConnections) {
        boolean wait = !EventLoops.inGroup(acceptor) && !EventLoops.inGroup(workers);
        ChannelFuture unbound = serverChannel.close();
        if (wait) {
            unbound.awaitUninterruptibly(CLOSE_CONNECTIONS_MILLIS);
        }
        var closing = connections.close();
        if (wait) {
            closing.awaitUninterruptibly(CLOSE_CONNECTIONS_MILLIS);
        }
        try {
            afterConnections.run();
        } finally {
            EventLoops.shutdown(acceptor);
            EventLoops.shutdown(workers);
        }
    }
}
