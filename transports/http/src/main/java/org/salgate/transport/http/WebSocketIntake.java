package org.salgate.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.ByteToMessageDecoder.Cumulator;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.netty.ChannelServer.ChannelSession;
import org.salgate.transport.netty.ChannelWriter;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's end of a WebSocket connection: once the handshake completed, the connection is a
 * session (its queue written as {@link WebSocketFrames}) and each message a frame for the
 * {@link ServerHandler}. What it was sent is held on the session's memory, each read counted by the
 * buffer it filled until the message or control frame it belongs to is handled. The connection is
 * read while it is writable (its peer reads the answers and pongs), and closed with a close frame
 * when the budget cannot hold it and it holds the most (1013), it holds over
 * {@value HttpLimits#PRE_AUTHENTICATION_BYTES} bytes before its hello was accepted (1009), a message
 * has over {@value HttpLimits#MAX_FRAGMENTS_PER_MESSAGE} fragments (1009), or a message outlasts the
 * body timeout (1008). At the handshake the frame decoder's cumulator starts counting the reads
 * it takes in, and a handler after it counts them back; the {@link RequestDecoder}, whose place that
 * decoder took, passes on the reads asked for only while the connection is writable.
 */
final class WebSocketIntake implements WebSocketHandler.End {

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketIntake.class);
    /** A read's buffer beyond its bytes that is counted at most: one read's worth. */
    private static final long MAX_UNUSED_BYTES = 64 * 1024;
    /** What a read held by the frame decoder costs besides its buffer: its place in the decoder's composite. */
    private static final long READ_OVERHEAD_BYTES = 96;

    private final ServerHandler handler;
    private final Supplier<ChannelSession> sessions;
    private final Channel channel;
    private final ConnectionMemory memory;
    private final long timeoutNanos;
    private final Frames frames = new Frames();
    private ChannelSession session;
    /** The connection's last handler, which keeps why it ends: a refusal too, after which what comes is dropped. */
    private WebSocketHandler end;
    private boolean greeted;
    private boolean authenticated;
    /** Bytes read and not yet part of a message or control frame handled. */
    private long held;
    /** The reads not all handled yet, in order: bytes not yet handled, and what the read was counted for. */
    private final ArrayDeque<long[]> reads = new ArrayDeque<>();
    /** Bytes on the wire of the frames of the data message under way. */
    private long messageBytes;
    private int fragments;
    /** When the message under way began: after the last one handled, or when bytes came after none were held. */
    private long messageStartNanos;
    private ScheduledFuture<?> timer;

    WebSocketIntake(ServerHandler handler, Supplier<ChannelSession> sessions, Channel channel, ConnectionMemory memory,
            HttpLimits limits) {
        this.handler = handler;
        this.sessions = sessions;
        this.channel = channel;
        this.memory = memory;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(limits.bodyTimeoutMillis());
    }

    /**
     * The handshake completed: the connection is a session, its bytes counted on the session's
     * account and the connection read from now on, as the frame decoder takes them in and before
     * Netty's WebSocket protocol handler. The frame decoder holds the reads themselves (not copies
     * grown by doubling), so what an unfinished frame holds is what was counted.
     */
    @Override
    public ConnectionCodec opened(ChannelHandlerContext ctx, Object evt) {
        if (!(evt instanceof WebSocketServerProtocolHandler.HandshakeComplete)) {
            return null;
        }
        session = sessions.get();
        end = (WebSocketHandler) ctx.handler();
        memory.handOver(session.budget());
        ChannelPipeline pipeline = ctx.pipeline();
        if (pipeline.get(WebSocketFrameDecoder.class) instanceof ByteToMessageDecoder frameDecoder) {
            frameDecoder.setCumulator(this::taken);
        }
        pipeline.addBefore(HttpTransportServer.WEBSOCKET_HANDLER, "websocket-frames", frames);
        // One read per turn of the event loop: a read is counted before the next one is made, and
        // sessions sending large frames take turns instead of each filling up to 16 buffers at once.
        channel.config().setRecvByteBufAllocator(new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(1));
        channel.config().setAutoRead(channel.isWritable());
        HandlerCalls.run(() -> handler.sessionOpened(session), "opening", session);
        return session.codec();
    }

    /** A session's first message, a hello with credentials the agent admits, lifts the pre-authentication bound. */
    @Override
    public void received(ChannelHandlerContext ctx, Message message) {
        if (!greeted) {
            greeted = true;
            authenticated = message instanceof Hello hello && admits(hello.credentials());
        }
        HandlerCalls.run(() -> handler.messageReceived(session, message), "a message", session);
    }

    private boolean admits(String credentials) {
        try {
            return handler.admits(credentials);
        } catch (RuntimeException e) {
            LOG.warn("the server handler failed checking the credentials of {}", session, e);
            return false;
        }
    }

    @Override
    public void closed(ChannelHandlerContext ctx, Throwable failure) {
        if (session != null) {
            HandlerCalls.run(() -> handler.sessionClosed(session, failure), "closing", session);
        }
    }

    private boolean refused() {
        return end != null && end.ending();
    }

    /**
     * {@code bytes} of what was read have been handled (a message, or a control frame): each read
     * all of whose bytes are handled is given back whole, as the decoder lets go of it then.
     */
    private void handled(long bytes) {
        long left = Math.min(bytes, held);
        held -= left;
        while (left > 0 && !reads.isEmpty()) {
            long[] read = reads.peekFirst();
            long used = Math.min(left, read[0]);
            read[0] -= used;
            left -= used;
            if (read[0] == 0) {
                reads.pollFirst();
                memory.give(read[1]);
            }
        }
        messageStartNanos = System.nanoTime();
    }

    /** What a read costs while the decoder holds it: the buffer it filled (up to a read's worth unused), and its place. */
    private static long cost(ByteBuf read) {
        long readable = read.readableBytes();
        return Math.max(readable, Math.min(read.capacity(), readable + MAX_UNUSED_BYTES)) + READ_OVERHEAD_BYTES;
    }

    private void checkTime() {
        timer = null;
        if (refused() || held == 0 || !channel.isActive()) {
            return;
        }
        long age = System.nanoTime() - messageStartNanos;
        if (age >= timeoutNanos) {
            refuse(WebSocketCloseStatus.POLICY_VIOLATION, "message-timeout", "a message did not arrive whole within "
                    + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms (" + HttpTransportProvider.BODY_TIMEOUT_MILLIS + ")");
        } else {
            timer = channel.eventLoop().schedule(this::checkTime, timeoutNanos - age, TimeUnit.NANOSECONDS);
        }
    }

    private void refuse(WebSocketCloseStatus status, String cause, String reason) {
        if (!end.ended(new IOException("the agent closed the WebSocket: " + reason))) {
            return;
        }
        channel.config().setAutoRead(false);
        if (!cause.equals("budget")) { // the budget logs its own line
            HttpTransportServer.PEER_LOG.log("websocket-" + cause, "closing the WebSocket from {}: {}", channel.remoteAddress(), reason);
        }
        // The reason goes in the close frame, which allows 123 bytes of it.
        String brief = reason.length() > 123 ? reason.substring(0, 123) : reason;
        channel.writeAndFlush(new CloseWebSocketFrame(status, brief)).addListener(ChannelFutureListener.CLOSE);
        ChannelWriter.closeLater(channel);
    }

    /** The bytes a client's frame took on the wire: its header, its mask and its payload. */
    static long wireBytes(WebSocketFrame frame) {
        long payload = frame.content().readableBytes();
        long length = payload <= 125 ? 0 : payload <= 0xffff ? 2 : 8;
        return 2 + length + 4 + payload;
    }

    /** The frame decoder takes in a read: counted, then held with what it holds already (a {@link Cumulator}). */
    private ByteBuf taken(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf read) {
        if (refused()) {
            read.release();
            return cumulation;
        }
        int n = read.readableBytes();
        if (n > 0) {
            long cost = cost(read);
            if (!memory.take(cost)) {
                read.release();
                refuse(WebSocketCloseStatus.TRY_AGAIN_LATER, "budget", memory.full("this one"));
                return cumulation;
            }
            if (held == 0) {
                messageStartNanos = System.nanoTime();
            }
            held += n;
            reads.addLast(new long[] {n, cost});
            if (timer == null) {
                timer = channel.eventLoop().schedule(this::checkTime, timeoutNanos, TimeUnit.NANOSECONDS);
            }
        }
        return ByteToMessageDecoder.COMPOSITE_CUMULATOR.cumulate(alloc, cumulation, read);
    }

    /** Counts bytes back as messages and control frames are handled; reads while the connection is writable. */
    private final class Frames extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof WebSocketFrame frame)) {
                ctx.fireChannelRead(msg);
                return;
            }
            if (refused()) {
                frame.release();
                return;
            }
            long wire = wireBytes(frame);
            if (frame instanceof PingWebSocketFrame || frame instanceof PongWebSocketFrame
                    || frame instanceof CloseWebSocketFrame) {
                ctx.fireChannelRead(frame);
                handled(wire);
                return;
            }
            if (++fragments > HttpLimits.MAX_FRAGMENTS_PER_MESSAGE) {
                frame.release();
                refuse(WebSocketCloseStatus.MESSAGE_TOO_BIG, "fragments", "it sent a message in more than "
                        + HttpLimits.MAX_FRAGMENTS_PER_MESSAGE + " fragments");
                return;
            }
            messageBytes += wire; // the aggregator holds the fragments until the last
            boolean last = frame.isFinalFragment();
            ctx.fireChannelRead(frame);
            if (last) {
                handled(messageBytes);
                messageBytes = 0;
                fragments = 0;
            }
        }

        /** After the decoder had a read: a hello that came with more bytes has been read by now. */
        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (!authenticated && held > HttpLimits.PRE_AUTHENTICATION_BYTES) {
                refuse(WebSocketCloseStatus.MESSAGE_TOO_BIG, "before-hello", "it sent more than "
                        + HttpLimits.PRE_AUTHENTICATION_BYTES + " bytes of messages before its hello was accepted");
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (!refused()) {
                ctx.channel().config().setAutoRead(ctx.channel().isWritable());
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
            ctx.fireChannelInactive();
        }
    }
}
