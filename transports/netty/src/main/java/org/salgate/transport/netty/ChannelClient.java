package org.salgate.transport.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.util.Objects;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;

/**
 * A client on one Netty channel with an event loop (one thread) of its own, so that a handler that
 * blocks stalls this connection only. Requests go through an {@link OutboundQueue} drained by a
 * {@link ChannelWriter}; the transport gives the handlers after TLS and how a batch is carried.
 */
public abstract class ChannelClient implements TransportClient {

    protected final ClientOptions options;
    protected final ConnectionCodec codec;
    private final OutboundQueue<byte[]> queue;
    private final String transport;
    private final ChannelWriter.Carrier carrier;
    private volatile Channel channel;
    private volatile ChannelWriter writer;
    private boolean closed;

    /** @param transport the transport's name, for its thread and errors */
    protected ChannelClient(ClientOptions options, String transport, ChannelWriter.Carrier carrier) {
        this.options = Objects.requireNonNull(options, "options");
        this.transport = transport;
        this.carrier = carrier;
        this.codec = new ConnectionCodec(options.codec());
        this.queue = OutboundQueue.forClient(options, () -> writer.wake());
    }

    /** Adds this transport's handlers to a new channel's pipeline, after TLS. */
    protected abstract void initPipeline(ChannelPipeline pipeline, ClientHandler handler, long timeoutMillis);

    /** Waits for what must come before the first request (a WebSocket handshake), or throws a {@link #failure}. */
    protected void awaitReady(Channel channel, long timeoutMillis) throws IOException {}

    protected final IOException failure(String why, Throwable cause) {
        return new IOException("cannot connect to " + target() + ": " + why + "; check that an agent listens there "
                + "with the " + transport + " transport" + (options.tls() != null ? ""
                : ", and whether it runs with TLS (then connect with --tls, --tls-ca or --tls-pin)"), cause);
    }

    @Override
    public final synchronized void connect(ClientHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (closed) {
            throw new IOException("this client is closed; create a new one to connect again");
        }
        if (channel != null) {
            throw new IllegalStateException("this client is connected already");
        }
        int timeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis()));
        SslHandler tls = options.tls() == null ? null
                : NettyIo.tls(options.tls().clientEngine(options.host(), options.port()), timeoutMillis);
        ChannelFuture connecting = new Bootstrap()
                .group(NettyIo.group(1, "salgate-" + transport + "-client", true))
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOCATOR, NettyIo.ALLOCATOR)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeoutMillis)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(options.writeLowWaterBytes(), options.writeHighWaterBytes()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addFirst("tls", tls);
                        }
                        initPipeline(ch.pipeline(), handler, timeoutMillis);
                    }
                })
                .connect(options.host(), options.port());
        Channel ch = connecting.channel();
        ch.closeFuture().addListener(f -> NettyIo.shutdown(ch.eventLoop().parent()));
        try {
            if (!connecting.awaitUninterruptibly(timeoutMillis + 1_000L)) {
                throw failure("timed out after " + timeoutMillis + " ms", null);
            }
            if (!connecting.isSuccess()) {
                throw failure(String.valueOf(connecting.cause().getMessage()), connecting.cause());
            }
            if (tls != null && !tls.handshakeFuture().awaitUninterruptibly().isSuccess()) {
                Throwable cause = tls.handshakeFuture().cause();
                throw new IOException(options.tls().describeFailure(target(), cause), cause);
            }
            awaitReady(ch, timeoutMillis);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        writer = new ChannelWriter(ch, queue, carrier);
        channel = ch;
    }

    @Override
    public void send(Message message) throws IOException {
        if (!isOpen()) {
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
    public synchronized void close() {
        if (!closed && channel != null) {
            channel.close();
            NettyIo.shutdown(channel.eventLoop().parent());
        }
        closed = true;
    }

    protected final String target() {
        return options.host() + ":" + options.port();
    }
}
