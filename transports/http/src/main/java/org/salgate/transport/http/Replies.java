package org.salgate.transport.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import org.salgate.transport.netty.ChannelWriter;

/** Builds the HTTP answers of this transport and its door: JSON bodies, documents, and JSON errors. */
public final class Replies {

    /** The one JSON mapper of this transport; thread-safe once configured. */
    public static final ObjectMapper JSON = new ObjectMapper();

    /** The type of a JSON body. */
    public static final String JSON_TYPE = "application/json; charset=utf-8";
    /** The type of an XML body. */
    public static final String XML_TYPE = "application/xml; charset=utf-8";

    private Replies() {}

    /** A body of the given type. */
    public static FullHttpResponse of(HttpResponseStatus status, String contentType, byte[] body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }

    /** A JSON body. */
    public static FullHttpResponse json(HttpResponseStatus status, Object value) {
        try {
            return of(status, JSON_TYPE, JSON.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON for " + value.getClass().getSimpleName(), e);
        }
    }

    /** An XML document (SensorML, CML, PCML). */
    public static FullHttpResponse xml(String document) {
        return of(HttpResponseStatus.OK, XML_TYPE, document.getBytes(StandardCharsets.UTF_8));
    }

    /** An empty answer, such as 204 after a removal. */
    public static FullHttpResponse empty(HttpResponseStatus status) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        return response;
    }

    /** {@code {"error": code, "message": message}} with the status. */
    public static FullHttpResponse error(HttpResponseStatus status, String code, String message) {
        ObjectNode body = JSON.createObjectNode();
        body.put("error", code);
        body.put("message", message == null ? "" : message);
        return json(status, body);
    }

    /** The 401 of a request without a token the agent accepts, with a {@code WWW-Authenticate} challenge. */
    public static FullHttpResponse unauthenticated(boolean tokenGiven) {
        FullHttpResponse response = error(HttpResponseStatus.UNAUTHORIZED, "UNAUTHENTICATED", tokenGiven
                ? "the bearer token is not one of this agent's tokens: send one of them as 'Authorization: Bearer TOKEN'"
                : "this agent requires a token: send one of its tokens as 'Authorization: Bearer TOKEN'");
        response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"salgate\"");
        return response;
    }

    /** Writes an answer after which the connection closes, or closes it regardless after a grace period. */
    static ChannelFuture sendAndClose(Channel channel, FullHttpResponse response) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ChannelFuture written = channel.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        ChannelWriter.closeLater(channel);
        return written;
    }

    /** The answer to a HEAD request: the headers of {@code response} without its body. */
    static FullHttpResponse forMethod(FullHttpResponse response, HttpMethod method) {
        if (!HttpMethod.HEAD.equals(method) || !response.content().isReadable()) {
            return response;
        }
        FullHttpResponse head = response.replace(Unpooled.EMPTY_BUFFER);
        response.release();
        return head;
    }
}
