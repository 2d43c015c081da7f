package org.salgate.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The first handler after TLS: a request's first byte arms the header timer, its headers the body
 * timer; either firing answers 408 (after the earlier requests' answers) and closes. Between
 * requests the header time bounds an idle keep-alive connection, closed without an answer. A
 * WebSocket or event stream is not timed out here. On the event loop only.
 */
final class HeaderDeadline extends ChannelDuplexHandler {

    private enum State { IDLE, HEADERS, BODY, BUSY, UPGRADED }

    private final long headerTimeoutMillis;
    private final long bodyTimeoutMillis;
    private ChannelHandlerContext ctx;
    private State state = State.IDLE;
    private ScheduledFuture<?> timer;

    HeaderDeadline(long headerTimeoutMillis, long bodyTimeoutMillis) {
        this.headerTimeoutMillis = headerTimeoutMillis;
        this.bodyTimeoutMillis = bodyTimeoutMillis;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(headerTimeoutMillis);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (state == State.IDLE && msg instanceof ByteBuf bytes && bytes.isReadable()) {
            state = State.HEADERS;
            arm(headerTimeoutMillis);
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    /** A request's headers arrived whole and were accepted: its body has the body time. */
    void headersReceived() {
        if (state != State.UPGRADED) {
            state = State.BODY;
            arm(bodyTimeoutMillis);
        }
    }

    /** A request arrived whole: no deadline until it is answered. */
    void bodyReceived() {
        if (state == State.BODY) {
            state = State.BUSY;
            cancel();
        }
    }

    /** The requests received were answered and the connection is kept: the idle time starts. */
    void answered() {
        if (state == State.BUSY) {
            state = State.IDLE;
            arm(headerTimeoutMillis);
        }
    }

    /** The connection is a WebSocket or an event stream from now on, or it is closing. */
    void upgraded() {
        state = State.UPGRADED;
        cancel();
    }

    private void arm(long millis) {
        cancel();
        if (ctx != null && ctx.channel().isActive()) {
            timer = ctx.executor().schedule(this::expired, millis, TimeUnit.MILLISECONDS);
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
        State expired = state;
        if (expired == State.HEADERS || expired == State.BODY) {
            state = State.UPGRADED; // nothing else is read or answered on this connection
            boolean headers = expired == State.HEADERS;
            String option = headers ? HttpTransportProvider.HEADER_TIMEOUT_MILLIS
                    : HttpTransportProvider.BODY_TIMEOUT_MILLIS;
            long millis = headers ? headerTimeoutMillis : bodyTimeoutMillis;
            String part = headers ? "headers" : "body";
            HttpTransportServer.PEER_LOG.log(part + "-timeout", "closing the HTTP connection from {}: its request {} did not arrive "
                    + "within {} ms ({})", ctx.channel().remoteAddress(), part, millis, option);
            RequestHandler.closeWith(ctx.channel(), Replies.error(HttpResponseStatus.REQUEST_TIMEOUT, "REQUEST_TIMEOUT",
                    "the request's " + part + " did not arrive within " + millis + " ms"));
        } else if (expired == State.IDLE) {
            ctx.close();
        }
    }
}
