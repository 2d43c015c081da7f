package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Gathers a request and its body into one message, up to the frame limit. A body announced or
 * found larger is answered 413 as JSON and the connection closed; an announced length is refused
 * from the headers alone, before any of the body is read.
 */
final class BodyAggregator extends HttpObjectAggregator {

    private final int maxBodyBytes;

    BodyAggregator(int maxBodyBytes) {
        super(maxBodyBytes);
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        HeaderDeadline deadline = ctx.pipeline().get(HeaderDeadline.class);
        if (deadline != null) {
            deadline.upgraded(); // nothing more is read on this connection
        }
        ctx.channel().config().setAutoRead(false);
        Replies.sendAndClose(ctx.channel(), Replies.error(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "TOO_LARGE",
                "the request body is larger than this agent's limit of " + maxBodyBytes + " bytes"));
    }
}
