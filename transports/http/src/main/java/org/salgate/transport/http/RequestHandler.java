package org.salgate.transport.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.netty.ChannelWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of an HTTP connection: has its {@link HttpDoor} answer its requests one at a
 * time, in order (pipelining and {@link Refusal}s included), keeping the connection unless asked to
 * close; an event stream keeps it for itself. The next request is taken on only while the channel
 * is writable, and at {@value HttpLimits#MAX_PIPELINED_REQUESTS} waiting the {@link ReadPacer} stops
 * reading. Answers count against the connection's memory until written, bodies until answered.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);

    /**
     * A request refused from its headers, passed down in its place so that its answer goes out in
     * order; {@code close}: the connection closes after it (its body was not read, or its framing
     * cannot be trusted). The answer has no body if the request was a HEAD.
     */
    record Refusal(FullHttpResponse answer, boolean close) {}

    /** A request waiting to be answered, with the body bytes it holds of the connection's memory. */
    private record Waiting(FullHttpRequest request, long bodyBytes) {}

    private final HttpDoor door;
    private final HeaderDeadline deadline;
    private final ReadPacer pacer;
    private final ConnectionMemory memory;
    /** {@link Waiting} requests and {@link Refusal}s, in the order they came. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private Exchange current;
    private long currentBodyBytes;
    private boolean streaming;
    /** No more requests are taken on: the connection closes once what is under way is answered. */
    private boolean closing;
    /** The answer written after the current exchange's before the connection closes, or null. */
    private FullHttpResponse last;
    private boolean dispatching;
    private Runnable writable = () -> { };

    RequestHandler(HttpDoor door, HeaderDeadline deadline, ReadPacer pacer, ConnectionMemory memory) {
        this.door = door;
        this.deadline = deadline;
        this.pacer = pacer;
        this.memory = memory;
    }

    /** Closes the connection after {@code response}, which follows the answer under way; the waiting requests are dropped. */
    static void closeWith(Channel channel, FullHttpResponse response) {
        RequestHandler rest = channel.pipeline().get(RequestHandler.class);
        if (rest == null || rest.streaming) {
            Replies.sendAndClose(channel, response);
        } else {
            rest.closeWith(response);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (streaming || closing) {
            discard(msg);
            return;
        }
        if (msg instanceof FullHttpRequest request) {
            waiting.addLast(new Waiting(request, request.content().readableBytes()));
        } else if (msg instanceof Refusal refusal) {
            waiting.addLast(refusal);
        } else {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (held() >= HttpLimits.MAX_PIPELINED_REQUESTS) {
            pacer.hold(true);
        }
        next();
    }

    private int held() {
        return waiting.size() + (current != null ? 1 : 0);
    }

    /** Takes on the waiting requests, one at a time, while the connection can take their answers. */
    private void next() {
        if (dispatching) {
            return; // an answer given synchronously: the loop below takes on the next
        }
        dispatching = true;
        try {
            while (current == null && !closing && !streaming && !waiting.isEmpty() && ctx.channel().isWritable()) {
                Object item = waiting.pollFirst();
                if (item instanceof Refusal refusal) {
                    write(refusal.answer(), !refusal.close(), refusal.close());
                } else {
                    dispatch((Waiting) item);
                }
            }
        } finally {
            dispatching = false;
        }
        if (held() < HttpLimits.MAX_PIPELINED_REQUESTS) {
            pacer.hold(false);
        }
        if (current == null && waiting.isEmpty() && !closing && !streaming) {
            deadline.answered();
        }
    }

    private void dispatch(Waiting item) {
        FullHttpRequest request = item.request();
        Exchange exchange = new Exchange(this, ctx, request);
        current = exchange;
        currentBodyBytes = item.bodyBytes();
        try {
            door.answer(exchange);
        } catch (RuntimeException e) {
            LOG.warn("answering {} {} failed", request.method(), request.uri(), e);
            exchange.respond(Replies.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "INTERNAL",
                    "the agent failed to answer this request; its log has the details"));
        }
    }

    /** Writes the answer of the current exchange, then takes on the next request. */
    void finish(Exchange exchange, FullHttpResponse response) {
        if (exchange != current || streaming) {
            ReferenceCountUtil.release(response);
            return;
        }
        FullHttpRequest request = exchange.request();
        boolean keepAlive = HttpUtil.isKeepAlive(request) && !closing && ctx.channel().isActive();
        FullHttpResponse answer = Replies.forMethod(response, request.method());
        current = null;
        releaseBody(request, currentBodyBytes);
        if (last != null) {
            FullHttpResponse closing = last;
            last = null;
            write(answer, false, false);
            Replies.sendAndClose(ctx.channel(), closing);
            return;
        }
        write(answer, keepAlive, !keepAlive);
        next();
    }

    /** Writes an answer, counted until written; no more requests unless kept alive; closes after it if {@code close}. */
    private void write(FullHttpResponse answer, boolean keepAlive, boolean close) {
        long bytes = answer.content().readableBytes();
        if (!memory.take(bytes)) {
            ReferenceCountUtil.release(answer);
            stopTakingRequests();
            Replies.sendAndClose(ctx.channel(), Replies.error(HttpResponseStatus.SERVICE_UNAVAILABLE, "OVERLOADED",
                    "the agent's connections hold its whole memory budget of " + memory.maxBytes() + " bytes ("
                            + MemoryBudget.OPTION + ") and this one the most; read the answers and ask again later"));
            return;
        }
        HttpUtil.setKeepAlive(answer, keepAlive);
        var written = ctx.writeAndFlush(answer);
        written.addListener(f -> memory.give(bytes));
        if (!keepAlive) {
            stopTakingRequests();
        }
        if (close) {
            written.addListener(ChannelFutureListener.CLOSE);
            ChannelWriter.closeLater(ctx.channel());
        }
    }

    private void closeWith(FullHttpResponse response) {
        if (closing && last == null && current == null) {
            ReferenceCountUtil.release(response);
            return;
        }
        stopTakingRequests();
        if (current == null) {
            Replies.sendAndClose(ctx.channel(), response);
        } else {
            if (last != null) {
                last.release();
            }
            last = response; // after the answer under way
        }
    }

    private void stopTakingRequests() {
        closing = true;
        deadline.upgraded();
        pacer.stop();
        drop();
    }

    /** The current exchange answers with an event stream; later requests on this connection are dropped. */
    void streaming(Exchange exchange, Runnable onWritable) {
        if (exchange != current) {
            return;
        }
        streaming = true;
        writable = onWritable;
        deadline.upgraded();
        releaseBody(exchange.request(), currentBodyBytes);
        drop();
        pacer.hold(false);
    }

    private void releaseBody(FullHttpRequest request, long bodyBytes) {
        memory.give(bodyBytes);
        request.release();
    }

    private void discard(Object msg) {
        if (msg instanceof FullHttpRequest request) {
            releaseBody(request, request.content().readableBytes());
        } else if (msg instanceof Refusal refusal) {
            ReferenceCountUtil.release(refusal.answer());
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private void drop() {
        Object item;
        while ((item = waiting.pollFirst()) != null) {
            if (item instanceof Waiting w) {
                releaseBody(w.request(), w.bodyBytes());
            } else {
                ReferenceCountUtil.release(((Refusal) item).answer());
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            if (streaming) {
                writable.run();
            } else {
                next();
            }
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        drop();
        if (last != null) {
            last.release();
            last = null;
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing HTTP connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
