package org.salgate.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a request from its headers, before its body is read: undecodable (400, 414, 431),
 * ambiguous framing (a {@code Transfer-Encoding} other than one {@code chunked}; no or two
 * {@code Host}s), an unknown version (505), all closing the connection; or refused by the
 * {@link HttpDoor} (origin, host, token). It goes on as a {@link RequestHandler.Refusal}, answered in
 * order; with an unread body or an upgrade the connection closes after it.
 */
final class RequestGuard extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestGuard.class);

    private final HttpDoor door;
    /** After a refusal that closes the connection: nothing more goes on. */
    private boolean closing;
    /** The rest of a refused request is dropped, up to its last content. */
    private boolean skipping;

    RequestGuard(HttpDoor door) {
        this.door = door;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HttpObject http)) {
            ctx.fireChannelRead(msg); // WebSocket frames, once upgraded
            return;
        }
        if (closing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        DecoderResult result = http.decoderResult();
        if (result.isFailure()) {
            ReferenceCountUtil.release(msg);
            LOG.debug("closing HTTP connection {}: undecodable request: {}", ctx.channel().remoteAddress(),
                    result.cause().toString());
            refuse(ctx, decoderRefusal(result.cause()), true);
            return;
        }
        if (skipping) {
            skipping = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest request) {
            FullHttpResponse refusal = framingRefusal(request);
            boolean framing = refusal != null;
            if (refusal == null) {
                refusal = door.refusal(request, ctx.channel());
            }
            if (refusal != null) {
                if (framing) {
                    LOG.debug("closing HTTP connection {}: {}", ctx.channel().remoteAddress(),
                            refusal.content().toString(StandardCharsets.UTF_8));
                }
                // A refused WebSocket handshake closes too: its client meant to stop speaking HTTP.
                boolean close = framing || Exchange.hasBody(request) || !HttpUtil.isKeepAlive(request)
                        || request.headers().contains(HttpHeaderNames.UPGRADE);
                skipping = !close && !(msg instanceof LastHttpContent);
                ReferenceCountUtil.release(msg);
                refuse(ctx, Replies.forMethod(refusal, request.method()), close);
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    private void refuse(ChannelHandlerContext ctx, FullHttpResponse answer, boolean close) {
        closing = close;
        ctx.fireChannelRead(new RequestHandler.Refusal(answer, close));
    }

    private static FullHttpResponse decoderRefusal(Throwable cause) {
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

    /** Framing a proxy in front of the agent could read differently (request smuggling), or an unknown version. */
    private static FullHttpResponse framingRefusal(HttpRequest request) {
        HttpVersion version = request.protocolVersion();
        if (version.majorVersion() != 1 || version.minorVersion() > 1) {
            return Replies.error(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, "HTTP_VERSION_NOT_SUPPORTED",
                    "this agent speaks HTTP/1.1 (and 1.0), not " + version.text());
        }
        List<String> encodings = request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (encodings.size() > 1 || encodings.size() == 1
                && !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(encodings.get(0).trim())) {
            return Replies.error(HttpResponseStatus.BAD_REQUEST, "MALFORMED_HTTP",
                    "a request's Transfer-Encoding must be one header 'chunked', got " + encodings);
        }
        List<String> hosts = request.headers().getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1 || hosts.isEmpty() && version.minorVersion() == 1) {
            return Replies.error(HttpResponseStatus.BAD_REQUEST, "MALFORMED_HTTP",
                    "an HTTP/1.1 request must have exactly one Host header, it has " + hosts.size());
        }
        return null;
    }
}
