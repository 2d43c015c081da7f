package org.salgate.transport.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One HTTP request being answered once, by {@link #respond} (any thread), or turned into an event stream. */
public final class Exchange {

    private final RequestHandler connection;
    private final ChannelHandlerContext ctx;
    private final FullHttpRequest request;
    private final QueryStringDecoder uri;
    private Map<String, String> parameters = Map.of();

    Exchange(RequestHandler connection, ChannelHandlerContext ctx, FullHttpRequest request) {
        this.connection = connection;
        this.ctx = ctx;
        this.request = request;
        this.uri = new QueryStringDecoder(request.uri());
    }

    /** The request, its body whole; it stays the connection's, released once answered. */
    public FullHttpRequest request() {
        return request;
    }

    /** The connection, for its address, its writability and its close. */
    public Channel channel() {
        return ctx.channel();
    }

    /** The request's path, without its query, not decoded. */
    public String path() {
        return uri.path();
    }

    /** The path parameters the route matched, such as {@code id}. */
    public void parameters(Map<String, String> matched) {
        this.parameters = Map.copyOf(matched);
    }

    /** A path parameter of the route, such as {@code id}. */
    public String parameter(String name) {
        return parameters.get(name);
    }

    /** A query parameter's first value, or null. */
    public String query(String name) {
        List<String> values = uri.parameters().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** Every query parameter but the named ones, first values, in order. */
    public Map<String, String> queryExcept(String... names) {
        Map<String, String> result = new LinkedHashMap<>();
        uri.parameters().forEach((name, values) -> {
            if (!values.isEmpty() && !List.of(names).contains(name)) {
                result.put(name, values.get(0));
            }
        });
        return result;
    }

    /** The body as UTF-8 text. */
    public String body() {
        return request.content().toString(StandardCharsets.UTF_8);
    }

    /** The token of an {@code Authorization: Bearer} header, or the empty string. */
    public String bearerToken() {
        return bearerToken(request);
    }

    /** The token of a request's {@code Authorization: Bearer} header, or the empty string. */
    public static String bearerToken(HttpRequest request) {
        String header = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        if (header == null) {
            return "";
        }
        String h = header.trim();
        if (h.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return h.substring(7).trim();
        }
        return "";
    }

    /** Whether the client asked for XML rather than JSON. */
    public boolean wantsXml() {
        String accept = request.headers().get(HttpHeaderNames.ACCEPT);
        if (accept == null) {
            return false;
        }
        int xml = Math.max(accept.indexOf("application/xml"), accept.indexOf("text/xml"));
        int json = accept.indexOf("application/json");
        return xml >= 0 && (json < 0 || xml < json);
    }

    /** The peer's address, for logs and session names. */
    public String remoteAddress() {
        return String.valueOf(ctx.channel().remoteAddress());
    }

    /** Answers the request; callable from any thread, once. */
    public void respond(FullHttpResponse response) {
        onLoop(() -> connection.finish(this, response));
    }

    /** This exchange becomes an event stream; {@code onWritable} runs each time the connection can take more again. */
    public void stream(Runnable onWritable) {
        onLoop(() -> connection.streaming(this, onWritable));
    }

    private void onLoop(Runnable task) {
        if (ctx.executor().inEventLoop()) {
            task.run();
        } else {
            ctx.executor().execute(task);
        }
    }

    /** Whether a request announces a body (a decoded one: Netty's decoder refuses a Content-Length that is no number). */
    public static boolean hasBody(HttpRequest request) {
        return HttpUtil.isTransferEncodingChunked(request) || HttpUtil.getContentLength(request, 0L) > 0;
    }
}
