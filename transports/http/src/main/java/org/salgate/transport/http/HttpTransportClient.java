package org.salgate.transport.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.TransportClient;
import org.salgate.transport.netty.ChannelWriter;
import org.salgate.transport.netty.EventLoops;
import org.salgate.transport.netty.TlsHandlers;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;

/**
 * A client of the HTTP transport: an HTTP/1.1 connection upgraded to a WebSocket on
 * {@value HttpTransportProvider#WEBSOCKET_PATH}, one binary message per frame, with its own single
 * I/O thread so that a handler that blocks stalls this connection only.
 */
final class HttpTransportClient implements TransportClient {

    /** The largest HTTP answer to the handshake this client reads. */
    private static final int MAX_HANDSHAKE_BYTES = 64 * 1024;

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final OutboundQueue<byte[]> queue;
    private EventLoopGroup group;
    private volatile Channel channel;
    private volatile ChannelWriter writer;
    private boolean closed;

    HttpTransportClient(ClientOptions options) {
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
        String scheme = options.tls() != null ? "wss://" : "ws://";
        URI uri = URI.create(scheme + hostForUri() + ":" + options.port() + HttpTransportProvider.WEBSOCKET_PATH);
        WebSocketClientProtocolConfig webSocket = WebSocketClientProtocolConfig.newBuilder()
                .webSocketUri(uri)
                .maxFramePayloadLength(options.maxFrameBytes())
                .handshakeTimeoutMillis(timeoutMillis)
                .handleCloseFrames(true)
                .dropPongFrames(true)
                .build();
        CompletableFuture<Void> handshake = new CompletableFuture<>();
        group = EventLoops.create(1, "salgate-http-client", true);
        Bootstrap bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeoutMillis)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ChannelPipeline p = ch.pipeline();
                        TlsHandlers.addClient(ch, options.tls(), options.host(), options.port(), timeoutMillis);
                        p.addLast("http", new HttpClientCodec());
                        p.addLast("handshake", new HttpObjectAggregator(MAX_HANDSHAKE_BYTES));
                        p.addLast("websocket", new WebSocketClientProtocolHandler(webSocket));
                        p.addLast("messages", new WebSocketFrameAggregator(options.maxFrameBytes()));
                        p.addLast("client", new WebSocketClientHandler(handler, codec, handshake));
                    }
                });
        ChannelFuture connecting = bootstrap.connect(options.host(), options.port());
        try {
            if (!connecting.awaitUninterruptibly(timeoutMillis + 1_000) || !connecting.isSuccess()) {
                connecting.cancel(false);
                String why = connecting.isDone() ? String.valueOf(connecting.cause().getMessage())
                        : "timed out after " + timeoutMillis + " ms";
                throw failed(why, connecting.cause());
            }
            try {
                TlsHandlers.awaitHandshake(connecting.channel(), options.tls(), target(), timeoutMillis);
            } catch (IOException e) {
                connecting.channel().close();
                EventLoops.shutdown(group);
                throw e;
            }
            handshake.get(timeoutMillis + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            connecting.channel().close();
            throw failed("the WebSocket handshake failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            connecting.channel().close();
            throw failed("the WebSocket handshake took more than " + timeoutMillis + " ms", null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connecting.channel().close();
            throw failed("interrupted", e);
        } catch (IOException e) {
            EventLoops.shutdown(group);
            throw e;
        }
        Channel ch = connecting.channel();
        EventLoopGroup ownGroup = group;
        ch.closeFuture().addListener(f -> ownGroup.shutdownGracefully(EventLoops.SHUTDOWN_QUIET_MILLIS,
                EventLoops.SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS));
        // Requests leave through the connection's queue, as on the netty transport, one binary message each.
        writer = new ChannelWriter(ch, queue, WebSocketFrames.INSTANCE);
        ch.closeFuture().addListener(f -> queue.discard());
        channel = ch;
    }

    private IOException failed(String why, Throwable cause) {
        EventLoops.shutdown(group);
        String tlsHint = options.tls() != null ? ""
                : ", and whether it runs with TLS (then connect with --tls, --tls-ca or --tls-pin)";
        return new IOException("cannot connect to " + target() + ": " + why
                + "; check that an agent listens there with the http transport" + tlsHint, cause);
    }

    private String hostForUri() {
        String host = options.host();
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
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
