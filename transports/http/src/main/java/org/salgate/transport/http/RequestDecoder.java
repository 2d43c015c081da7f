package org.salgate.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Netty's HTTP request decoder on a connection that is not read by itself (auto-read off): it
 * decodes one message at a time ({@link #setSingleDecode}) and reads the socket only when a read is
 * asked for (the {@link RequestHandler} ready for the next request, the aggregator for more of a
 * body; the {@link RequestGuard} hands their reads here) and what it holds is no whole message. A flood of pipelined requests thus waits as bytes
 * in the socket, not as thousands of decoded messages.
 *
 * <p>It also times requests: a request's first byte arms the header timer, its headers the body
 * timer; either firing answers 408 and closes. Between requests the header time bounds an idle
 * keep-alive connection, closed without an answer. On the event loop only.
 */
final class RequestDecoder extends HttpRequestDecoder {

    private enum State { IDLE, HEADERS, BODY, BUSY, DONE }

    private final HttpLimits limits;
    private ChannelHandlerContext ctx;
    private State state = State.IDLE;
    private ScheduledFuture<?> timer;
    /** In a decode now: a read asked for meanwhile waits for it to end. */
    private boolean decoding;
    private boolean readWanted;
    private boolean produced;

    RequestDecoder(HttpLimits limits) {
        super(limits.decoderConfig());
        this.limits = limits;
        setSingleDecode(true);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(limits.headerTimeoutMillis());
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (state == State.IDLE && msg instanceof ByteBuf bytes && bytes.isReadable()) {
            state = State.HEADERS;
            arm(limits.headerTimeoutMillis());
        }
        decoding = true;
        try {
            super.channelRead(ctx, msg);
        } finally {
            decoding = false;
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        decoding = true;
        try {
            super.channelReadComplete(ctx);
        } finally {
            decoding = false;
        }
        if (readWanted) {
            read(ctx);
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        int before = out.size();
        super.decode(ctx, buffer, out);
        for (Object msg : out.subList(before, out.size())) {
            produced = true;
            if (msg instanceof HttpRequest && state != State.DONE) {
                state = State.BODY;
                arm(limits.bodyTimeoutMillis());
            }
            if (msg instanceof LastHttpContent && state == State.BODY) {
                state = State.BUSY;
                cancel();
            }
        }
    }

    /**
     * A read asked for by a handler after this one ({@code from}, the {@link RequestGuard}): a message
     * decoded from what this decoder holds, or else a read of the socket. Asked for by the request
     * handler, it starts the wait for the next request.
     */
    void read(ChannelHandlerContext from) throws Exception {
        if (ctx.isRemoved()) {
            from.read(); // the WebSocket's decoder took this one's place
            return;
        }
        if (state == State.BUSY) {
            state = actualReadableBytes() > 0 ? State.HEADERS : State.IDLE;
            arm(limits.headerTimeoutMillis());
        }
        readWanted = true;
        if (decoding) {
            return; // once the decode under way is over
        }
        decoding = true;
        try {
            while (readWanted && !ctx.isRemoved() && ctx.channel().isActive()) {
                readWanted = false;
                if (actualReadableBytes() == 0) {
                    ctx.read();
                    break;
                }
                produced = false;
                super.channelRead(ctx, Unpooled.EMPTY_BUFFER);
                boolean whole = produced;
                super.channelReadComplete(ctx); // which reads the socket when no message was whole
                if (!whole) {
                    readWanted = false;
                }
            }
        } finally {
            decoding = false;
        }
    }

    /** Whether it holds bytes not decoded yet: the start of a request sent before the last one was answered. */
    boolean holdsBytes() {
        return actualReadableBytes() > 0;
    }

    /** The connection is a WebSocket or an event stream from now on, or it is closing: no more timers. */
    void upgraded() {
        state = State.DONE;
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
        state = State.DONE;
        if (expired == State.IDLE) {
            ctx.close();
        } else if (expired == State.HEADERS || expired == State.BODY) {
            boolean headers = expired == State.HEADERS;
            String option = headers ? HttpTransportProvider.HEADER_TIMEOUT_MILLIS
                    : HttpTransportProvider.BODY_TIMEOUT_MILLIS;
            long millis = headers ? limits.headerTimeoutMillis() : limits.bodyTimeoutMillis();
            String part = headers ? "headers" : "body";
            HttpTransportServer.PEER_LOG.log(part + "-timeout", "closing the HTTP connection from {}: its request {} "
                    + "did not arrive within {} ms ({})", ctx.channel().remoteAddress(), part, millis, option);
            Replies.sendAndClose(ctx.channel(), Replies.error(HttpResponseStatus.REQUEST_TIMEOUT, "REQUEST_TIMEOUT",
                    "the request's " + part + " did not arrive within " + millis + " ms"));
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        cancel(); // the WebSocket's decoder took this one's place
        super.handlerRemoved0(ctx);
    }
}
