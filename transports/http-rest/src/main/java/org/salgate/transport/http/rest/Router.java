package org.salgate.transport.http.rest;

import org.salgate.transport.http.Exchange;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The routes of the HTTP server: a method and a path template such as
 * {@code /api/sensors/{id}/commands/{command}}, whose {@code {name}} segments match one path
 * segment each (percent-decoded) and are handed to the route's action.
 */
final class Router {

    /** One route. */
    record Route(HttpMethod method, String template, Consumer<Exchange> action) {
        Route {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(template, "template");
            Objects.requireNonNull(action, "action");
        }

        List<String> segments() {
            return split(template);
        }
    }

    /** What a path matched: the route and its parameters, or the methods the path has when none matched. */
    record Match(Route route, Map<String, String> parameters, Set<HttpMethod> allowed) {}

    private final List<Route> routes = new ArrayList<>();

    Router add(HttpMethod method, String template, Consumer<Exchange> action) {
        routes.add(new Route(method, template, action));
        return this;
    }

    List<Route> routes() {
        return List.copyOf(routes);
    }

    /** The route for a method and a raw path (without the query); {@code route} is null when none matched. */
    Match match(HttpMethod method, String rawPath) {
        List<String> segments = split(rawPath);
        Set<HttpMethod> allowed = new LinkedHashSet<>();
        for (Route route : routes) {
            Map<String, String> parameters = bind(route.segments(), segments);
            if (parameters == null) {
                continue;
            }
            if (route.method().equals(method)) {
                return new Match(route, parameters, allowed);
            }
            allowed.add(route.method());
        }
        return new Match(null, Map.of(), allowed);
    }

    private static Map<String, String> bind(List<String> template, List<String> path) {
        if (template.size() != path.size()) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < template.size(); i++) {
            String t = template.get(i);
            String p = path.get(i);
            if (t.startsWith("{") && t.endsWith("}")) {
                if (p.isEmpty()) {
                    return null;
                }
                parameters.put(t.substring(1, t.length() - 1), QueryStringDecoder.decodeComponent(p));
            } else if (!t.equals(p)) {
                return null;
            }
        }
        return parameters;
    }

    private static List<String> split(String path) {
        List<String> segments = new ArrayList<>();
        for (String s : path.split("/", -1)) {
            segments.add(s);
        }
        if (segments.size() > 1 && segments.get(0).isEmpty()) {
            segments.remove(0);
        }
        return segments;
    }
}
