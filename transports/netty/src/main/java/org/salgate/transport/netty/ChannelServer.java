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
import java.util.function.Consumer;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.ServerOptions;

/**
 * The listening side of the transports on Netty (netty, http): one acceptor thread and
 * {@link ServerOptions#ioThreads()} I/O threads, failed accepts paced by an {@link AcceptBackoff},
 * the options' water marks as each connection's writability, and on close every connection closed
 * before the threads stop. The transport gives what each accepted connection's pipeline holds.
 */
public final class ChannelServer {

    /** How long closing waits for the connections to close before stopping the threads regardless. */
    private static final long CLOSE_CONNECTIONS_MILLIS = 2_000;

    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    /** The listening channel and the connections. */
    private final ChannelGroup channels;
    private final Channel listening;

    private ChannelServer(ServerOptions options, String name, Consumer<SocketChannel> pipeline) throws IOException {
        String where = options.host() + ":" + options.port();
        acceptor = NettyIo.group(1, "salgate-" + name + "-accept", false);
        workers = NettyIo.group(options.ioThreads(), "salgate-" + name + "-io", false);
        channels = new DefaultChannelGroup("salgate-" + name, GlobalEventExecutor.INSTANCE);
        ChannelFuture bound = new ServerBootstrap()
                .group(acceptor, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.ALLOCATOR, NettyIo.ALLOCATOR)
                .handler(new AcceptPacer(name + " server " + where))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, NettyIo.ALLOCATOR)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(options.writeLowWaterBytes(), options.writeHighWaterBytes()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        pipeline.accept(ch);
                    }
                })
                .bind(options.host(), options.port()).awaitUninterruptibly();
        listening = bound.channel();
        channels.add(listening);
        if (!bound.isSuccess()) {
            stopThreads();
            throw new IOException("cannot listen on " + where + ": " + bound.cause().getMessage()
                    + "; choose another port or stop what uses it", bound.cause());
        }
    }

    /**
     * Listens on the options' host and port; {@code name} names the threads ({@code salgate-NAME-io})
     * and the log's lines, and {@code pipeline} sets up each accepted connection.
     *
     * @throws IOException if it cannot listen there, saying why; a taken port's cause is a {@link BindException}
     */
    public static ChannelServer bind(ServerOptions options, String name, Consumer<SocketChannel> pipeline)
            throws IOException {
        return new ChannelServer(options, name, pipeline);
    }

    /** The address it listens on. */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) listening.localAddress();
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
        var closing = channels.close(); // the listening channel first, then the connections
        if (!NettyIo.inGroup(acceptor) && !NettyIo.inGroup(workers)) {
            closing.awaitUninterruptibly(CLOSE_CONNECTIONS_MILLIS);
        }
        try {
            afterConnections.run();
        } finally {
            stopThreads();
        }
    }

    private void stopThreads() {
        NettyIo.shutdown(acceptor);
        NettyIo.shutdown(workers);
    }
}
