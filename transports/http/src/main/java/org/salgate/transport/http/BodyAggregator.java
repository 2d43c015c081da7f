package org.salgate.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.ReferenceCountUtil;

/**
 * Netty's aggregator, each part of a body copied to a buffer of its size and counted against the
 * connection's memory (given back once answered). A body over the limit is answered 413 (an
 * announced one before it is read), one the budget cannot hold 503; both close the connection.
 */
final class BodyAggregator extends HttpObjectAggregator {

    private final int maxBodyBytes;
    private final ConnectionMemory memory;
    private final RequestDecoder decoder;
    private boolean refused;

    BodyAggregator(int maxBodyBytes, ConnectionMemory memory, RequestDecoder decoder) {
        super(maxBodyBytes);
        this.maxBodyBytes = maxBodyBytes;
        this.memory = memory;
        this.decoder = decoder;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (refused && msg instanceof HttpContent) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpContent content && !(msg instanceof HttpRequest)) {
            if (!memory.take(content.content().readableBytes())) {
                ReferenceCountUtil.release(msg);
                refuse(ctx, memory.overloaded("send the request again later"));
                return;
            }
            super.channelRead(ctx, compact(content));
            return;
        }
        super.channelRead(ctx, msg);
    }

    /** The part in a buffer of its own size: the decoder's parts are slices that keep a whole read's buffer. */
    private static HttpContent compact(HttpContent content) {
        ByteBuf bytes = content.content();
        if (!bytes.isReadable()) {
            return content;
        }
        ByteBuf copy = bytes.alloc().buffer(bytes.readableBytes());
        copy.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
        HttpContent compacted = content.replace(copy); // a last part keeps its trailers
        content.release();
        return compacted;
    }

    /** Answers, closes, and reads nothing more: no other request is under way while a body is read. */
    private void refuse(ChannelHandlerContext ctx, FullHttpResponse answer) {
        refused = true;
        decoder.upgraded();
        Replies.sendAndClose(ctx.channel(), answer);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        refuse(ctx, Replies.error(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "TOO_LARGE",
                "the request body is larger than this agent's limit of " + maxBodyBytes + " bytes"));
    }
}
