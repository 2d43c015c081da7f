package org.salgate.transport.http.rest;

import org.salgate.transport.http.Exchange;
import org.salgate.transport.http.Replies;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The web page's files and the OpenAPI document, read once from this jar's resources. */
final class StaticFiles {

    /** Where the page's files are in the jar. */
    static final String WWW = "org/salgate/transport/http/rest/www/";
    /** Where the OpenAPI document is in the jar. */
    static final String OPENAPI = "org/salgate/transport/http/rest/openapi.json";
    /** The page's files, each served at {@code /name}, the first at {@code /} too. */
    static final List<String> FILES = List.of("index.html", "app.js", "events.js", "plot.js", "style.css");

    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "json", Replies.JSON_TYPE);

    private StaticFiles() {}

    /** The action of a route that answers with a resource of this jar, read now. */
    static Consumer<Exchange> serve(String resource) {
        byte[] body = read(resource);
        String type = TYPES.get(resource.substring(resource.lastIndexOf('.') + 1));
        return ex -> {
            FullHttpResponse response = Replies.of(HttpResponseStatus.OK, type, body);
            response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
            ex.respond(response);
        };
    }

    /** The bytes of a resource of this jar. */
    static byte[] read(String resource) {
        try (InputStream in = StaticFiles.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource + "; it was built wrongly");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource + " from the jar", e);
        }
    }
}
