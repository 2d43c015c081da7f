package org.salgate.transport.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.netty.ChannelClient;

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
        p.addLast("client", new WebSocketClientHandler(handler, codec, handshake));
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
