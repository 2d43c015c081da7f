package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Netty's aggregator, whose body over the limit is answered 413 (an announced one before it is
 * read) and closes the connection. The {@link RequestDecoder} counts the parts it gathers.
 */
final class BodyAggregator extends HttpObjectAggregator {

    private final RequestDecoder decoder;

    BodyAggregator(int maxBodyBytes, RequestDecoder decoder) {
        super(maxBodyBytes);
        this.decoder = decoder;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        decoder.refuse(Replies.error(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "TOO_LARGE",
                "the request body is larger than this agent's limit of " + maxContentLength() + " bytes"));
    }
}
