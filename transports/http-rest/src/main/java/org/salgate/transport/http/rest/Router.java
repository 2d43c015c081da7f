package org.salgate.transport.http.rest;

import org.salgate.transport.http.Exchange;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The routes of the HTTP server: a method and a path template such as
 * {@code /api/sensors/{id}/commands/{command}}, whose {@code {name}} segments match one non-empty
 * path segment each (percent-decoded) and are handed to the route's action.
 */
final class Router {

    private static final Pattern PARAMETER = Pattern.compile("\\{(\\w+)}");

    /** One route; {@code path} matches its template, with a group for each parameter of {@code names}. */
    record Route(HttpMethod method, String template, Consumer<Exchange> action, Pattern path, List<String> names) {}

    /** What a path matched: the route and its parameters, or the methods the path has when none matched. */
    record Match(Route route, Map<String, String> parameters, Set<HttpMethod> allowed) {}

    private final List<Route> routes = new ArrayList<>();

    Router add(HttpMethod method, String template, Consumer<Exchange> action) {
        List<String> names = new ArrayList<>();
        StringBuilder regex = new StringBuilder();
        int at = 0;
        for (Matcher m = PARAMETER.matcher(template); m.find(); at = m.end()) {
            regex.append(Pattern.quote(template.substring(at, m.start()))).append("([^/]+)");
            names.add(m.group(1));
        }
        regex.append(Pattern.quote(template.substring(at)));
        routes.add(new Route(method, template, action, Pattern.compile(regex.toString()), List.copyOf(names)));
        return this;
    }

    List<Route> routes() {
        return List.copyOf(routes);
    }

    /** The route for a method and a raw path (without the query); {@code route} is null when none matched. */
    Match match(HttpMethod method, String rawPath) {
        Set<HttpMethod> allowed = new LinkedHashSet<>();
        for (Route route : routes) {
            Matcher m = route.path().matcher(rawPath);
            if (!m.matches()) {
                continue;
            }
            if (!route.method().equals(method)) {
                allowed.add(route.method());
                continue;
            }
            Map<String, String> parameters = new HashMap<>();
            for (int i = 0; i < route.names().size(); i++) {
                parameters.put(route.names().get(i), QueryStringDecoder.decodeComponent(m.group(i + 1)));
            }
            return new Match(route, parameters, allowed);
        }
        return new Match(null, Map.of(), allowed);
    }
}
