package org.salgate.transport.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/** Builds the HTTP answers of this transport: JSON bodies, documents, and JSON errors. */
final class Replies {

    /** The one JSON mapper of this transport; thread-safe once configured. */
    static final ObjectMapper JSON = new ObjectMapper();

    static final String JSON_TYPE = "application/json; charset=utf-8";
    static final String XML_TYPE = "application/xml; charset=utf-8";

    private Replies() {}

    /** A body of the given type. */
    static FullHttpResponse of(HttpResponseStatus status, String contentType, byte[] body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }

    /** A JSON body. */
    static FullHttpResponse json(HttpResponseStatus status, Object value) {
        try {
            return of(status, JSON_TYPE, JSON.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON for " + value.getClass().getSimpleName(), e);
        }
    }

    /** An XML document (SensorML, CML, PCML). */
    static FullHttpResponse xml(String document) {
        return of(HttpResponseStatus.OK, XML_TYPE, document.getBytes(StandardCharsets.UTF_8));
    }

    /** An empty answer, such as 204 after a removal. */
    static FullHttpResponse empty(HttpResponseStatus status) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        return response;
    }

    /** {@code {"error": code, "message": message}} with the status. */
    static FullHttpResponse error(HttpResponseStatus status, String code, String message) {
        ObjectNode body = JSON.createObjectNode();
        body.put("error", code);
        body.put("message", message == null ? "" : message);
        return json(status, body);
    }

    /** Writes an answer after which the connection closes. */
    static void sendAndClose(Channel channel, FullHttpResponse response) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        channel.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
}
