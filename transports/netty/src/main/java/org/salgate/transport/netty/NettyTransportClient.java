package org.salgate.transport.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.util.Objects;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.FrameReader;
import org.salgate.wire.Message;

/**
 * A Netty client with its own single I/O thread, so that a handler that blocks stalls this
 * connection only. Requests go through the connection's {@link OutboundQueue}, drained by a
 * {@link ChannelWriter} as the server's sessions are.
 */
final class NettyTransportClient implements TransportClient {

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private EventLoopGroup group;
    private final OutboundQueue<byte[]> queue;
    private volatile Channel channel;
    private volatile ChannelWriter writer;
    private boolean closed;

    NettyTransportClient(ClientOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.codec = new ConnectionCodec(options.codec());
        this.queue = OutboundQueue.forClient(options, this::wake);
    }

    private void wake() {
        ChannelWriter w = writer;
        if (w != null) {
            w.wake();
        }
    }

    @Override
    public synchronized void connect(ClientHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (closed) {
            throw new IOException("this client is closed; create a new one to connect again");
        }
        if (group != null) {
            throw new IllegalStateException("this client is connected already");
        }
        long timeoutMillis = Math.max(1, Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis()));
        group = EventLoops.create(1, "salgate-netty-client", true);
        Bootstrap bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeoutMillis)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        TlsHandlers.addClient(ch, options.tls(), options.host(), options.port(), timeoutMillis);
                        ch.pipeline().addLast("client", new ClientChannelHandler(handler,
                                new FrameReader(codec, options.maxFrameBytes()), queue));
                    }
                });
        ChannelFuture connecting = bootstrap.connect(options.host(), options.port());
        boolean done = connecting.awaitUninterruptibly(timeoutMillis + 1_000);
        if (!done || !connecting.isSuccess()) {
            connecting.cancel(false);
            EventLoops.shutdown(group);
            String why = done ? String.valueOf(connecting.cause().getMessage()) : "timed out after " + timeoutMillis + " ms";
            throw new IOException("cannot connect to " + target() + ": " + why
                    + "; check that an agent listens there with this transport", done ? connecting.cause() : null);
        }
        Channel ch = connecting.channel();
        try {
            TlsHandlers.awaitHandshake(ch, options.tls(), target(), timeoutMillis);
        } catch (IOException e) {
            ch.close();
            EventLoops.shutdown(group);
            throw e;
        }
        EventLoopGroup ownGroup = group;
        ch.closeFuture().addListener(f -> ownGroup.shutdownGracefully(EventLoops.SHUTDOWN_QUIET_MILLIS,
                EventLoops.SHUTDOWN_TIMEOUT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS));
        writer = new ChannelWriter(ch, queue);
        channel = ch;
    }

    @Override
    public void send(Message message) throws IOException {
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            throw new IOException("the connection to " + target() + " is closed");
        }
        queue.offerRequest(codec.encode(message), target());
    }

    @Override
    public boolean isOpen() {
        Channel ch = channel;
        return ch != null && ch.isActive();
    }

    @Override
    public void close() {
        EventLoopGroup g;
        Channel ch;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            g = group;
            ch = channel;
        }
        if (ch != null) {
            ch.close();
        }
        EventLoops.shutdown(g);
    }

    private String target() {
        return options.host() + ":" + options.port();
    }
}
