package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;

/**
 * Right after the HTTP decoder: answers what it could not decode (400 for malformed HTTP, 414 for
 * a request line too long, 431 for too many header bytes) and closes that connection, and tells the
 * {@link HeaderDeadline} when a request's headers are complete. Other messages pass on.
 */
final class RequestGuard extends ChannelInboundHandlerAdapter {

    private final HeaderDeadline deadline;
    private boolean refused;

    RequestGuard(HeaderDeadline deadline) {
        this.deadline = deadline;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HttpObject http)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        DecoderResult result = http.decoderResult();
        if (result.isFailure()) {
            refused = true;
            ReferenceCountUtil.release(msg);
            deadline.upgraded(); // no more requests on this connection
            ctx.channel().config().setAutoRead(false);
            Replies.sendAndClose(ctx.channel(), refusal(result.cause()));
            return;
        }
        if (msg instanceof HttpRequest) {
            deadline.headersReceived();
        }
        ctx.fireChannelRead(msg);
    }

    private static io.netty.handler.codec.http.FullHttpResponse refusal(Throwable cause) {
        if (cause instanceof TooLongHttpHeaderException) {
            return Replies.error(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "HEADERS_TOO_LARGE",
                    "the request's headers are larger than this agent accepts: " + cause.getMessage());
        }
        if (cause instanceof TooLongHttpLineException) {
            return Replies.error(HttpResponseStatus.REQUEST_URI_TOO_LONG, "URI_TOO_LONG",
                    "the request line is longer than this agent accepts: " + cause.getMessage());
        }
        return Replies.error(HttpResponseStatus.BAD_REQUEST, "MALFORMED_HTTP",
                "the request is not valid HTTP/1.1: " + cause.getMessage());
    }
}
