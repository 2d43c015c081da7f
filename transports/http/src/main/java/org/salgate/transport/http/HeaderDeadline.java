package org.salgate.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The first handler after TLS: bounds how long a connection may take to send a request's headers
 * and how long it may stay idle between requests. The first byte of a request arms the header
 * timer; when it fires before the headers are complete, the request is answered 408 and the
 * connection closed. Between requests the same time bounds an idle keep-alive connection, which is
 * closed without an answer. A connection that became a WebSocket or a stream is never timed out here.
 *
 * <p>Runs on the channel's event loop only.
 */
final class HeaderDeadline extends ChannelDuplexHandler {

    private enum State { IDLE, HEADERS, BUSY, UPGRADED }

    private final long timeoutMillis;
    private ChannelHandlerContext ctx;
    private State state = State.IDLE;
    private ScheduledFuture<?> timer;

    HeaderDeadline(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm();
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (state == State.IDLE && msg instanceof ByteBuf bytes && bytes.isReadable()) {
            state = State.HEADERS;
            arm();
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    /** A request's headers arrived whole: no deadline until its answer is written. */
    void headersReceived() {
        if (state != State.UPGRADED) {
            state = State.BUSY;
            cancel();
        }
    }

    /** A request was answered and the connection is kept: the idle time starts. */
    void answered() {
        if (state == State.BUSY) {
            state = State.IDLE;
            arm();
        }
    }

    /** The connection is a WebSocket or an event stream from now on. */
    void upgraded() {
        state = State.UPGRADED;
        cancel();
    }

    private void arm() {
        cancel();
        if (ctx != null && ctx.channel().isActive()) {
            timer = ctx.executor().schedule(this::expired, timeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void expired() {
        timer = null;
        if (state == State.HEADERS) {
            state = State.UPGRADED; // nothing else is read or answered on this connection
            ctx.channel().config().setAutoRead(false);
            Replies.sendAndClose(ctx.channel(), Replies.error(HttpResponseStatus.REQUEST_TIMEOUT, "REQUEST_TIMEOUT",
                    "the request's headers did not arrive within " + timeoutMillis + " ms"));
        } else if (state == State.IDLE) {
            ctx.close();
        }
    }
}
