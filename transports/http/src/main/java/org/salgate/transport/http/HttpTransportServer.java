package org.salgate.transport.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.transport.netty.AcceptPacer;
import org.salgate.transport.netty.EventLoops;
import org.salgate.transport.netty.NettySession;
import org.salgate.transport.netty.TlsHandlers;

/**
 * An HTTP/1.1 server on Netty: one acceptor thread and {@link ServerOptions#ioThreads()} I/O threads.
 * Each connection starts as HTTP with keep-alive; a WebSocket handshake on
 * {@value HttpTransportProvider#WEBSOCKET_PATH} turns it into a salgate session, other requests go
 * to the {@link RestHandler}.
 */
final class HttpTransportServer implements TransportServer {

    /** How long closing waits for the connections to close before stopping the threads regardless. */
    private static final long CLOSE_CONNECTIONS_MILLIS = 2_000;

    private final ServerOptions options;
    private final HttpLimits limits;
    private final AtomicLong sessionIds = new AtomicLong();
    private final ChannelGroup connections = new DefaultChannelGroup("salgate-http", GlobalEventExecutor.INSTANCE);
    private EventLoopGroup acceptor;
    private EventLoopGroup workers;
    private Channel serverChannel;
    private RestApi api;
    private boolean started;
    private boolean closed;

    HttpTransportServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.limits = HttpLimits.of(options);
    }

    @Override
    public synchronized void start(ServerHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (started) {
            throw new IllegalStateException("this server was started already; create a new one to start again");
        }
        started = true;
        api = new RestApi(handler, options, sessionIds);
        acceptor = EventLoops.create(1, "salgate-http-accept", false);
        workers = EventLoops.create(options.ioThreads(), "salgate-http-io", false);
        WebSocketServerProtocolConfig webSocket = WebSocketServerProtocolConfig.newBuilder()
                .websocketPath(HttpTransportProvider.WEBSOCKET_PATH)
                .checkStartsWith(false)
                .handleCloseFrames(true)
                .decoderConfig(WebSocketDecoderConfig.newBuilder()
                        .maxFramePayloadLength(options.maxFrameBytes())
                        .closeOnProtocolViolation(true)
                        .build())
                .build();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptor, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(new AcceptPacer("HTTP server " + options.host() + ":" + options.port()))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(options.writeLowWaterBytes(), options.writeHighWaterBytes()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.add(ch);
                        ChannelPipeline p = ch.pipeline();
                        // First, so that everything below reads plain HTTP.
                        TlsHandlers.addServer(ch, options.tls());
                        HeaderDeadline deadline = new HeaderDeadline(limits.headerTimeoutMillis());
                        p.addLast("deadline", deadline);
                        // Streams push from their own threads, one message per write: flushes
                        // queued together become one write to the socket.
                        p.addLast("flushes", new FlushConsolidationHandler(
                                FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
                        p.addLast("http", new HttpServerCodec(limits.decoderConfig()));
                        p.addLast("guard", new RequestGuard(deadline));
                        p.addLast("body", new BodyAggregator(limits.maxBodyBytes()));
                        p.addLast("gate", new WebSocketGate("websocket"));
                        p.addLast("websocket", new WebSocketServerProtocolHandler(webSocket));
                        p.addLast("messages", new WebSocketFrameAggregator(options.maxFrameBytes()));
                        p.addLast("session", new WebSocketServerHandler(handler, () -> new NettySession(
                                sessionIds.incrementAndGet(), ch, options, WebSocketFrames.INSTANCE)));
                        p.addLast("rest", new RestHandler(api, deadline));
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
        EventLoops.stopServer(serverChannel, connections, CLOSE_CONNECTIONS_MILLIS, acceptor, workers);
        api.closeAll();
        shutdownGroups();
    }

    private void shutdownGroups() {
        EventLoops.shutdown(acceptor);
        EventLoops.shutdown(workers);
    }
}
