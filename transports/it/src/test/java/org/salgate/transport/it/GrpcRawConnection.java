package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One HTTP/2 connection to a gRPC server, driven frame by frame on Netty's HTTP/2 codec: it sends
 * what it is told (headers, message prefixes, body bytes, resets) and nothing else; in particular
 * it never returns flow-control credit, so what the server sends it is never read. For
 * {@link GrpcAttacks}; grpc-java's own client cannot be made to misbehave like this.
 */
final class GrpcRawConnection implements AutoCloseable {

    static final String SESSION = "/salgate.grpc.v1.SalSession/Session";
    /** A typed unary call whose message, a SensorML document, may be as large as the agent takes. */
    static final String ADD_SENSOR = "/salgate.grpc.v1.Sal/AddSensor";
    static final String STREAM_SENSOR = "/salgate.grpc.v1.Sal/StreamSensor";

    /** The bytes of a gRPC message's prefix: a compression flag and a four-byte length. */
    static final int MESSAGE_PREFIX_BYTES = 5;

    /** Shared by every raw connection of the test JVM; daemon threads, so nothing outlives the tests. */
    private static final EventLoopGroup GROUP = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("grpc-raw-client", true), NioIoHandler.newFactory());

    /** What the server said when it sent GOAWAY. */
    record GoAway(long errorCode, int lastStreamId, String debug) {
        boolean enhanceYourCalm() {
            return errorCode == Http2Error.ENHANCE_YOUR_CALM.code();
        }
    }

    private final Channel channel;
    private final Frames frames;
    private final int port;

    private GrpcRawConnection(Channel channel, Frames frames, int port) {
        this.channel = channel;
        this.frames = frames;
        this.port = port;
    }

    /** Connects to {@code 127.0.0.1:port} and waits for the server's SETTINGS. */
    static GrpcRawConnection open(int port, Duration timeout) throws IOException {
        Frames frames = new Frames();
        Bootstrap bootstrap = new Bootstrap().group(GROUP).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeout.toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forClient()
                                .initialSettings(Http2Settings.defaultSettings())
                                // the attacker decides how many resets it sends, not its own codec
                                .encoderEnforceMaxRstFramesPerWindow(0, 0)
                                .build());
                        ch.pipeline().addLast(frames);
                    }
                });
        ChannelFuture connect = bootstrap.connect("127.0.0.1", port).awaitUninterruptibly();
        if (!connect.isSuccess()) {
            throw new IOException("cannot connect to 127.0.0.1:" + port, connect.cause());
        }
        GrpcRawConnection connection = new GrpcRawConnection(connect.channel(), frames, port);
        await("the server's SETTINGS", frames.settings, timeout);
        return connection;
    }

    /** The server's SETTINGS_MAX_CONCURRENT_STREAMS, or null when it set none. */
    Long maxConcurrentStreams() {
        return frames.settings.getNow(Http2Settings.defaultSettings()).maxConcurrentStreams();
    }

    /** Completes when the server sends GOAWAY. */
    CompletableFuture<GoAway> goAway() {
        return frames.goAway;
    }

    /** Completes when the connection is closed, by either side. */
    CompletableFuture<Void> closed() {
        return frames.closed;
    }

    boolean isOpen() {
        return channel.isActive();
    }

    /**
     * Opens a call of {@code path} (HEADERS), with {@code authorization: Bearer token} unless the
     * token is null. The returned call's {@link Call#opened} fails if the codec refused to open the
     * stream (the server's concurrency limit reached, GOAWAY received).
     */
    Call call(String path, String token) {
        Call call = new Call(frames.newStream());
        frames.calls.put(call.stream, call);
        channel.writeAndFlush(new DefaultHttp2HeadersFrame(headers(path, token), false).stream(call.stream))
                .addListener(f -> {
                    if (f.isSuccess()) {
                        call.opened.complete(null);
                    } else {
                        call.opened.completeExceptionally(f.cause());
                    }
                });
        return call;
    }

    private Http2Headers headers(String path, String token) {
        Http2Headers headers = new DefaultHttp2Headers().method("POST").scheme("http").path(path)
                .authority("127.0.0.1:" + port).add("content-type", "application/grpc").add("te", "trailers");
        if (token != null) {
            headers.add("authorization", "Bearer " + token);
        }
        return headers;
    }

    /** A gRPC message: its prefix (uncompressed, its length) and body. */
    static ByteBuf message(byte[] body) {
        ByteBuf buf = Unpooled.buffer(MESSAGE_PREFIX_BYTES + body.length);
        buf.writeByte(0).writeInt(body.length).writeBytes(body);
        return buf;
    }

    /** The prefix of a message of {@code length} bytes, without its body. */
    static ByteBuf messagePrefix(int length) {
        return Unpooled.buffer(MESSAGE_PREFIX_BYTES).writeByte(0).writeInt(length);
    }

    /** Runs {@code task} on the connection's event loop, where frames may be written without hand-offs. */
    void onEventLoop(Runnable task) {
        channel.eventLoop().execute(task);
    }

    /** Runs {@code task} on the connection's event loop after {@code micros}. */
    void schedule(Runnable task, long micros) {
        channel.eventLoop().schedule(task, micros, TimeUnit.MICROSECONDS);
    }

    /** Writes a frame now; only on the event loop. */
    ChannelFuture write(Object frame) {
        return frames.ctx.write(frame);
    }

    void flush() {
        frames.ctx.flush();
    }

    /** A new stream whose HEADERS have not been written, for writers on the event loop. */
    Call newCall() {
        Call call = new Call(frames.newStream());
        frames.calls.put(call.stream, call);
        return call;
    }

    DefaultHttp2HeadersFrame headersFrame(Call call, String path, String token) {
        return new DefaultHttp2HeadersFrame(headers(path, token), false).stream(call.stream);
    }

    /** Forgets a call this side reset, so that a long attack does not keep them all. */
    void forget(Call call) {
        frames.calls.remove(call.stream);
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    static <T> T await(String what, CompletableFuture<T> future, Duration timeout) throws IOException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException("timed out after " + timeout.toMillis() + " ms waiting for " + what);
        } catch (ExecutionException e) {
            throw new IOException(what + " failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for " + what, e);
        }
    }

    /** One stream: what was written on it and how the server ended it. */
    final class Call {
        final Http2FrameStream stream;
        final CompletableFuture<Void> opened = new CompletableFuture<>();
        /** Completes with the trailers' grpc-status and grpc-message ("CODE: message"), or the reset's code ("RST n"). */
        final CompletableFuture<String> ended = new CompletableFuture<>();
        final AtomicLong bytesReceived = new AtomicLong();

        private Call(Http2FrameStream stream) {
            this.stream = stream;
        }

        /** Writes {@code data} on this stream (DATA frames, flow-controlled by the server's windows). */
        ChannelFuture send(ByteBuf data, boolean endStream) {
            return channel.writeAndFlush(new DefaultHttp2DataFrame(data, endStream).stream(stream));
        }

        /** Resets this stream (RST_STREAM CANCEL), as a client that gives up on a call does. */
        ChannelFuture reset() {
            return channel.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.CANCEL).stream(stream));
        }

        DefaultHttp2DataFrame dataFrame(ByteBuf data, boolean endStream) {
            return new DefaultHttp2DataFrame(data, endStream).stream(stream);
        }

        DefaultHttp2ResetFrame resetFrame() {
            return new DefaultHttp2ResetFrame(Http2Error.CANCEL).stream(stream);
        }

        boolean isEnded() {
            return ended.isDone();
        }

        /** How the call ended, in short: its gRPC status name, "RST n" for a reset, "connection closed", or "open". */
        String outcome() {
            String end = ended.getNow(null);
            if (end == null) {
                return "open";
            }
            int colon = end.indexOf(':');
            if (colon < 0) {
                return end;
            }
            try {
                return io.grpc.Status.fromCodeValue(Integer.parseInt(end.substring(0, colon))).getCode().name();
            } catch (NumberFormatException e) {
                return end;
            }
        }
    }

    /** Keeps what the server sends; never returns flow-control credit for DATA. */
    private static final class Frames extends Http2ChannelDuplexHandler {
        final CompletableFuture<Http2Settings> settings = new CompletableFuture<>();
        final CompletableFuture<GoAway> goAway = new CompletableFuture<>();
        final CompletableFuture<Void> closed = new CompletableFuture<>();
        final Map<Http2FrameStream, Call> calls = new ConcurrentHashMap<>();
        volatile ChannelHandlerContext ctx;

        @Override
        protected void handlerAdded0(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2SettingsFrame s) {
                    settings.complete(s.settings());
                } else if (msg instanceof Http2GoAwayFrame g) {
                    goAway.complete(new GoAway(g.errorCode(), g.lastStreamId(),
                            g.content().toString(StandardCharsets.UTF_8)));
                } else if (msg instanceof Http2HeadersFrame h) {
                    Call call = calls.get(h.stream());
                    CharSequence status = h.headers().get("grpc-status");
                    if (call != null && status != null) {
                        CharSequence message = h.headers().get("grpc-message");
                        call.ended.complete(status + ": " + (message == null ? "" : message));
                    }
                } else if (msg instanceof Http2DataFrame d) {
                    Call call = calls.get(d.stream());
                    if (call != null) {
                        call.bytesReceived.addAndGet(d.content().readableBytes());
                    }
                } else if (msg instanceof Http2ResetFrame r) {
                    Call call = calls.get(r.stream());
                    if (call != null) {
                        call.ended.complete("RST " + r.errorCode());
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            closed.complete(null);
            calls.values().forEach(c -> c.ended.complete("connection closed"));
            super.channelInactive(ctx);
        }

        /**
         * A stream the codec refused to open (the server's limit reached) fails its write's future,
         * which the caller sees; the codec itself closes the connection on a connection error.
         */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        }
    }
}
