package org.salgate.transport.http;

import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.io.IOException;
import java.util.ServiceLoader;
import org.salgate.transport.RateLimitedLog;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.netty.ChannelServer;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * An HTTP/1.1 server: each connection starts as HTTP with keep-alive; a WebSocket handshake on
 * {@value HttpTransportProvider#WEBSOCKET_PATH} turns it into a salgate session, other requests go
 * to the {@link HttpDoor} found when it starts.
 */
final class HttpTransportServer extends ChannelServer {

    /** What peers do (refused, timed out, not reading): at most a line a second per cause. */
    static final RateLimitedLog PEER_LOG = new RateLimitedLog(LoggerFactory.getLogger(HttpTransportServer.class),
            Level.WARN);

    /** The name of Netty's WebSocket protocol handler in the pipeline. */
    static final String WEBSOCKET_HANDLER = "websocket";

    private final HttpLimits limits;
    private final WebSocketServerProtocolConfig webSocket;
    private HttpDoor door = HttpDoor.NONE;

    HttpTransportServer(ServerOptions options) {
        super(options, "http");
        this.limits = HttpLimits.of(options);
        this.webSocket = WebSocketServerProtocolConfig.newBuilder()
                .websocketPath(HttpTransportProvider.WEBSOCKET_PATH)
                .checkStartsWith(false)
                .handleCloseFrames(true)
                .decoderConfig(WebSocketDecoderConfig.newBuilder()
                        .maxFramePayloadLength(options.maxFrameBytes())
                        .closeOnProtocolViolation(true)
                        .build())
                .build();
    }

    /** Opens the first door on the class path, if any, then listens. */
    @Override
    protected Bound bind(ServerHandler handler) throws IOException {
        door = ServiceLoader.load(HttpDoor.Factory.class, getClass().getClassLoader()).findFirst()
                .map(factory -> factory.open(handler, options, budget, this::nextSessionId)).orElse(HttpDoor.NONE);
        try {
            return super.bind(handler);
        } catch (IOException e) {
            door.close();
            throw e;
        }
    }

    @Override
    protected void initChannel(SocketChannel ch, ServerHandler handler) {
        ChannelPipeline p = ch.pipeline();
        ch.config().setAutoRead(false); // read as it is served: see RequestDecoder and WebSocketIntake
        ConnectionMemory memory = new ConnectionMemory(budget, ch);
        RequestDecoder decoder = new RequestDecoder(limits, memory, door);
        // The encoder comes before the decoder: the handshake puts the WebSocket's encoder before it
        // and the frame decoder in the decoder's place, and the close frames that frame decoder
        // writes must pass that encoder.
        p.addLast("http-encoder", new HttpResponseEncoder());
        p.addLast("http", decoder);
        p.addLast("reads", decoder.reads()); // the reads asked for after it: the decoder's to serve
        p.addLast("body", new HttpObjectAggregator(limits.maxBodyBytes())); // the decoder refuses a larger body
        p.addLast("requests", new RequestHandler(door, decoder, memory));
        p.addLast(WEBSOCKET_HANDLER, new WebSocketServerProtocolHandler(webSocket));
        p.addLast("messages", new WebSocketFrameAggregator(options.maxFrameBytes()));
        p.addLast("session", new WebSocketHandler(new WebSocketIntake(handler,
                () -> newSession(ch, WebSocketFrames.INSTANCE), ch, memory, limits)));
    }

    @Override
    protected void connectionsClosed() {
        door.close();
    }
}
