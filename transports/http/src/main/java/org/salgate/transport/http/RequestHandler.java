package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Has the {@link HttpDoor} answer a connection's requests one at a time, in order ({@link Refusal}s
 * included), keeping the connection unless asked to close; an event stream keeps it for itself. A
 * WebSocket handshake on {@value HttpTransportProvider#WEBSOCKET_PATH} goes on to the WebSocket
 * handlers after this one, which this one leaves the connection to. The connection is read for the
 * next request only once the last is answered and the channel writable: a client that does not read
 * its answers is not read either. Answers count against the connection's memory until written, bodies until answered.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);

    /**
     * A request refused from its headers, passed down in its place so that its answer goes out in
     * order; {@code close}: the connection closes after it (its body was not read, or its framing
     * cannot be trusted). The answer has no body if the request was a HEAD.
     */
    record Refusal(FullHttpResponse answer, boolean close) {}

    private final HttpDoor door;
    private final RequestDecoder decoder;
    private final ConnectionMemory memory;
    private ChannelHandlerContext ctx;
    private Exchange current;
    private long currentBodyBytes;
    private boolean streaming;
    /** No more requests are taken on: the connection closes once what is under way is answered. */
    private boolean closing;
    /** A read for the next request was asked for and nothing came yet. */
    private boolean reading;
    private Runnable writable = () -> { };

    RequestHandler(HttpDoor door, RequestDecoder decoder, ConnectionMemory memory) {
        this.door = door;
        this.decoder = decoder;
        this.memory = memory;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        readNext();
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        reading = false;
        if (current == null && !closing && !streaming && isHandshake(msg)) {
            decoder.upgraded();
            memory.give(((FullHttpRequest) msg).content().readableBytes());
            ctx.pipeline().remove(this); // before the handshake: the WebSocket's first frames may follow at once
            ctx.fireChannelRead(msg);
        } else if (streaming || closing || current != null) {
            if (msg instanceof FullHttpRequest request) {
                memory.give(request.content().readableBytes());
            } else if (msg instanceof Refusal refusal) {
                msg = refusal.answer();
            }
            ReferenceCountUtil.release(msg);
        } else if (msg instanceof FullHttpRequest request) {
            dispatch(request);
        } else if (msg instanceof Refusal refusal) {
            write(refusal.answer(), !refusal.close());
            readNext();
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (streaming) {
            ctx.read(); // what an event stream's client sends is dropped; reading notices its close
        }
        super.channelReadComplete(ctx);
    }

    private static boolean isHandshake(Object msg) {
        return msg instanceof FullHttpRequest request
                && HttpTransportProvider.WEBSOCKET_PATH.equals(new QueryStringDecoder(request.uri()).path())
                && HttpHeaderValues.WEBSOCKET.contentEqualsIgnoreCase(request.headers().get(HttpHeaderNames.UPGRADE));
    }

    /** Reads the next request once the channel can take its answer. */
    private void readNext() {
        if (current != null || closing || streaming || reading) {
            return;
        }
        if (!ctx.channel().isWritable()) {
            if (decoder.holdsBytes()) {
                HttpTransportServer.PEER_LOG.log("unread-answers", "the HTTP client at {} sends requests without reading "
                        + "the answers: it is not read until it reads them", ctx.channel().remoteAddress());
            }
            return; // until the channel is writable again
        }
        reading = true;
        ctx.read();
    }

    private void dispatch(FullHttpRequest request) {
        Exchange exchange = new Exchange(this, ctx, request);
        current = exchange;
        currentBodyBytes = request.content().readableBytes();
        try {
            door.answer(exchange);
        } catch (RuntimeException e) {
            LOG.warn("answering {} {} failed", request.method(), request.uri(), e);
            exchange.respond(Replies.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "INTERNAL",
                    "the agent failed to answer this request; its log has the details"));
        }
    }

    /** Writes the answer of the current exchange, then reads the next request. */
    void finish(Exchange exchange, FullHttpResponse response) {
        if (exchange != current || streaming) {
            ReferenceCountUtil.release(response);
            return;
        }
        FullHttpRequest request = exchange.request();
        boolean keepAlive = HttpUtil.isKeepAlive(request) && !closing && ctx.channel().isActive();
        current = null;
        releaseBody(request);
        write(Replies.forMethod(response, request.method()), keepAlive);
        readNext();
    }

    /** Writes an answer, counted until written; unless kept alive, the connection closes after it. */
    private void write(FullHttpResponse answer, boolean keepAlive) {
        long bytes = answer.content().readableBytes();
        if (!memory.take(bytes)) {
            ReferenceCountUtil.release(answer);
            stopTakingRequests();
            Replies.sendAndClose(ctx.channel(), memory.overloaded("read the answers and ask again later"));
            return;
        }
        if (!keepAlive) {
            stopTakingRequests();
            Replies.sendAndClose(ctx.channel(), answer).addListener(f -> memory.give(bytes));
            return;
        }
        HttpUtil.setKeepAlive(answer, true);
        ctx.writeAndFlush(answer).addListener(f -> memory.give(bytes));
    }

    private void stopTakingRequests() {
        closing = true;
        decoder.upgraded();
    }

    /** The current exchange answers with an event stream; later requests on this connection are dropped. */
    void streaming(Exchange exchange, Runnable onWritable) {
        if (exchange != current) {
            return;
        }
        streaming = true;
        writable = onWritable;
        decoder.upgraded();
        releaseBody(exchange.request());
        ctx.read();
    }

    private void releaseBody(FullHttpRequest request) {
        memory.give(currentBodyBytes);
        currentBodyBytes = 0;
        request.release();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            if (streaming) {
                writable.run();
            } else {
                readNext();
            }
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing HTTP connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
