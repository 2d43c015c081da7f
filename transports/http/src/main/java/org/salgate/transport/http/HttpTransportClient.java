package org.salgate.transport.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler.ClientHandshakeStateEvent;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.netty.ChannelClient;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;

/** A client of the HTTP transport: a connection upgraded to a WebSocket, one binary message per frame. */
final class HttpTransportClient extends ChannelClient {

    /** The largest HTTP answer to the handshake this client reads. */
    private static final int MAX_HANDSHAKE_BYTES = 64 * 1024;

    private final CompletableFuture<Void> handshake = new CompletableFuture<>();

    HttpTransportClient(ClientOptions options) {
        super(options, HttpTransportProvider.NAME, WebSocketFrames.INSTANCE);
    }

    @Override
    protected void initPipeline(ChannelPipeline p, ClientHandler handler, long timeoutMillis) {
        String scheme = options.tls() != null ? "wss://" : "ws://";
        URI uri = URI.create(scheme + hostForUri() + ":" + options.port() + HttpTransportProvider.WEBSOCKET_PATH);
        WebSocketClientProtocolConfig webSocket = WebSocketClientProtocolConfig.newBuilder()
                .webSocketUri(uri)
                .maxFramePayloadLength(options.maxFrameBytes())
                .handshakeTimeoutMillis(timeoutMillis)
                .handleCloseFrames(true)
                .dropPongFrames(true)
                // A program is not a page: no Origin, so that a client that reaches the agent through
                // a tunnel or a forwarded port is not taken for another origin's page.
                .generateOriginHeader(false)
                .build();
        p.addLast("http", new HttpClientCodec());
        p.addLast("handshake", new HttpObjectAggregator(MAX_HANDSHAKE_BYTES));
        p.addLast("websocket", new WebSocketClientProtocolHandler(webSocket));
        p.addLast("messages", new WebSocketFrameAggregator(options.maxFrameBytes()));
        p.addLast("client", new WebSocketHandler(end(handler, codec, handshake)));
    }

    /**
     * The client's end of its WebSocket: completes {@code handshake} when the WebSocket is up, then
     * hands each message to the {@link ClientHandler}, in order. A connection that closes before
     * fails the handshake with the first failure of it.
     */
    static WebSocketHandler.End end(ClientHandler handler, ConnectionCodec codec, CompletableFuture<Void> handshake) {
        return new WebSocketHandler.End() {
            @Override
            public ConnectionCodec opened(ChannelHandlerContext ctx, Object evt) {
                if (evt == ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
                    handshake.completeExceptionally(new IOException("the agent did not answer the WebSocket handshake"));
                }
                if (evt != ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
                    return null;
                }
                // Netty's WebSocket frame decoder compacts its buffer every 16 reads by default, so a
                // stream of large messages grew it to 4 MB (WebSocketClientReadBufferTest;
                // docs/performance.md); compacted after every read it stays about a message and a read in size.
                WebSocket08FrameDecoder decoder = ctx.pipeline().get(WebSocket08FrameDecoder.class);
                if (decoder != null) {
                    decoder.setDiscardAfterReads(1);
                }
                handshake.complete(null);
                return codec;
            }

            @Override
            public void received(ChannelHandlerContext ctx, Message message) {
                HandlerCalls.accept(handler::messageReceived, message, "a message", ctx.channel());
            }

            @Override
            public void closed(ChannelHandlerContext ctx, Throwable failure) {
                if (!handshake.isDone()) {
                    handshake.completeExceptionally(failure != null ? failure
                            : new IOException("the agent closed the connection during the handshake"));
                } else {
                    HandlerCalls.accept(handler::closed, failure, "closing", ctx.channel());
                }
            }
        };
    }

    /** Requests leave once the WebSocket handshake is done. */
    @Override
    protected void awaitReady(Channel channel, long timeoutMillis) throws IOException {
        try {
            handshake.get(timeoutMillis + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw failure("the WebSocket handshake failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw failure("the WebSocket handshake took more than " + timeoutMillis + " ms", null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted", e);
        }
    }

    private String hostForUri() {
        String host = options.host();
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
