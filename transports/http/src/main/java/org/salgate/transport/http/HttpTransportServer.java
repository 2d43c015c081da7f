package org.salgate.transport.http;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.io.IOException;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.netty.ChannelServer;
import org.salgate.transport.netty.NettySession;
import org.salgate.transport.netty.TlsHandlers;
import org.salgate.transport.MemoryBudget;

/**
 * An HTTP/1.1 server on Netty's {@link ChannelServer}: one acceptor thread and
 * {@link ServerOptions#ioThreads()} I/O threads.
 * Each connection starts as HTTP with keep-alive; a WebSocket handshake on
 * {@value HttpTransportProvider#WEBSOCKET_PATH} turns it into a salgate session, other requests go
 * to the {@link HttpDoor} found when it starts. What the connections hold draws on one
 * {@link MemoryBudget} of {@link ServerOptions.Limits#maxBufferedBytes()}.
 */
final class HttpTransportServer extends SingleUseServer {

    private final ServerOptions options;
    private final HttpLimits limits;
    /** What all the connections together may hold. */
    private final MemoryBudget budget;
    private final AtomicLong sessionIds = new AtomicLong();

    HttpTransportServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.limits = HttpLimits.of(options);
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
    }

    @Override
    protected Bound bind(ServerHandler handler) throws IOException {
        HttpDoor door = openDoor(handler);
        WebSocketServerProtocolConfig webSocket = WebSocketServerProtocolConfig.newBuilder()
                .websocketPath(HttpTransportProvider.WEBSOCKET_PATH)
                .checkStartsWith(false)
                .handleCloseFrames(true)
                .decoderConfig(WebSocketDecoderConfig.newBuilder()
                        .maxFramePayloadLength(options.maxFrameBytes())
                        .closeOnProtocolViolation(true)
                        .build())
                .build();
        ChannelServer server = ChannelServer.bind(options, "http", ch -> {
            ChannelPipeline p = ch.pipeline();
            // First, so that everything below reads plain HTTP.
            TlsHandlers.addServer(ch, options.tls());
            ConnectionMemory memory = new ConnectionMemory(budget, ch);
            ReadPacer pacer = new ReadPacer(memory);
            HeaderDeadline deadline = new HeaderDeadline(limits.headerTimeoutMillis(), limits.bodyTimeoutMillis());
            WebSocketIntake intake = new WebSocketIntake(ch, memory, pacer, limits);
            PacedRequestDecoder decoder = new PacedRequestDecoder(limits.decoderConfig(), pacer, memory);
            pacer.decoder(decoder);
            p.addLast("deadline", deadline);
            p.addLast("intake", intake.raw()); // before the decoder, the WebSocket's once upgraded
            // Each flush goes straight to the socket: a session's writer flushes once per run of
            // batches it writes, and a flush put off to a later task would hold the written
            // messages of every session on this event loop until all of them had written.
            // The encoder comes before the decoder: the handshake puts the WebSocket's encoder
            // before it and the frame decoder in the decoder's place, and the close frames that
            // frame decoder writes must pass that encoder.
            p.addLast("http-encoder", new HttpResponseEncoder());
            p.addLast("http", decoder);
            p.addLast("pacer", pacer);
            p.addLast("guard", new RequestGuard(deadline, pacer, door));
            p.addLast("body", new BodyAggregator(limits.maxBodyBytes(), memory));
            p.addLast("gate", new WebSocketGate("websocket"));
            p.addLast("frames", intake.frames());
            p.addLast("websocket", new WebSocketServerProtocolHandler(webSocket));
            p.addLast("messages", new WebSocketFrameAggregator(options.maxFrameBytes()));
            p.addLast("session", new WebSocketServerHandler(handler, () -> new NettySession(
                    sessionIds.incrementAndGet(), ch, options, budget, WebSocketFrames.INSTANCE),
                    memory, intake, pacer));
            p.addLast("requests", new RequestHandler(door, deadline, pacer, memory));
        });
        return new Bound(server.localAddress(), () -> server.close(door::close));
    }

    /** The first door on the class path, or none. */
    private HttpDoor openDoor(ServerHandler handler) {
        for (HttpDoor.Factory factory : ServiceLoader.load(HttpDoor.Factory.class, getClass().getClassLoader())) {
            return factory.open(handler, options, budget, sessionIds::incrementAndGet);
        }
        return HttpDoor.NONE;
    }
}
