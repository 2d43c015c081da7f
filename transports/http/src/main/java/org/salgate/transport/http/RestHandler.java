package org.salgate.transport.http;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of an HTTP connection: answers its requests one at a time, in the order they
 * came (HTTP/1.1 pipelining included), keeping the connection open unless the client asked to
 * close it. A request that becomes an event stream keeps the connection for itself.
 *
 * <p>Runs on the channel's event loop; answers come back to it through {@link Exchange#respond}.
 */
final class RestHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RestHandler.class);

    private final RestApi api;
    private final HeaderDeadline deadline;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private Exchange current;
    private boolean streaming;
    private Runnable writable = () -> { };

    RestHandler(RestApi api, HeaderDeadline deadline) {
        this.api = api;
        this.deadline = deadline;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request) || streaming) {
            ReferenceCountUtil.release(msg);
            return;
        }
        waiting.addLast(request);
        if (current == null) {
            next();
        }
    }

    private void next() {
        FullHttpRequest request = waiting.pollFirst();
        if (request == null) {
            return;
        }
        Exchange exchange = new Exchange(this, ctx, request);
        current = exchange;
        try {
            api.dispatch(exchange);
        } catch (RuntimeException e) {
            LOG.warn("answering {} {} failed", request.method(), request.uri(), e);
            exchange.respond(Replies.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "INTERNAL",
                    "the agent failed to answer this request; its log has the details"));
        }
    }

    /** Writes the answer of the current exchange, then takes the next request. */
    void finish(Exchange exchange, FullHttpResponse response) {
        if (exchange != current || streaming) {
            ReferenceCountUtil.release(response);
            return;
        }
        FullHttpRequest request = exchange.request();
        boolean keepAlive = HttpUtil.isKeepAlive(request) && ctx.channel().isActive();
        HttpUtil.setKeepAlive(response, keepAlive);
        var written = ctx.writeAndFlush(response);
        current = null;
        request.release();
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
            return;
        }
        deadline.answered();
        next();
    }

    /** The current exchange answers with an event stream; later requests on this connection are dropped. */
    void streaming(Exchange exchange, Runnable onWritable) {
        if (exchange != current) {
            return;
        }
        streaming = true;
        writable = onWritable;
        deadline.upgraded();
        exchange.request().release();
        for (FullHttpRequest request : waiting) {
            request.release();
        }
        waiting.clear();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            writable.run();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        for (FullHttpRequest request : waiting) {
            request.release();
        }
        waiting.clear();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing HTTP connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
