package org.salgate.transport.http.rest;

import org.salgate.transport.http.Exchange;
import org.salgate.transport.http.HttpDoor;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Result;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.RateLimitedLog;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.wire.HelloReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The http transport's door for people and programs other than salgate clients: the REST/JSON API
 * and its Server-Sent Events under {@code /api}, the OpenAPI document, and the live web page at
 * {@code /}. Before a request's body is read it is refused when the {@link BrowserRules} refuse it
 * (421, 403, 415), or when it asks for the API without a bearer token the agent
 * {@linkplain ServerHandler#admits admits} (401, with {@code WWW-Authenticate}): the page, its
 * files, the OpenAPI document and the WebSocket (which has its own hello) are public.
 *
 * <p>The answers are routes: a method and a path template such as
 * {@code /api/sensors/{id}/commands/{command}}, whose {@code {name}} segments match one non-empty
 * path segment each (percent-decoded). Each request of the API is one {@link BridgeSession} on the
 * agent's {@link ServerHandler}, which lasts for one call or, for an {@link EventStream}, as long as
 * its connection. The agent's refusals come back as JSON errors with the agent's own words and a
 * status that fits their code.
 */
final class RestApi implements HttpDoor {

    private static final Logger LOG = LoggerFactory.getLogger(RestApi.class);
    private static final RateLimitedLog PEERS = new RateLimitedLog(LOG, Level.WARN);

    /** The web page's files, in the jar under {@code www/} next to this class: each served at /name, the first at / too. */
    static final List<String> PAGE = List.of("index.html", "app.js", "events.js", "plot.js", "style.css");
    /** The OpenAPI document, in the jar next to this class. */
    static final String OPENAPI = "openapi.json";
    /** The command a stream reads when the request names none: every built-in sensor has it. */
    private static final String DEFAULT_COMMAND = "read";
    /** The interval of a stream whose request gives none, in milliseconds. */
    private static final long DEFAULT_INTERVAL_MILLIS = 1_000;
    /** A command's arguments in a body: a JSON object whose members are strings, numbers or booleans. */
    private static final ObjectReader ARGUMENTS = Replies.JSON.readerForMapOf(String.class);

    /**
     * The parameters of a raw path (without its query) that a route's template matches, or null:
     * each {@code {name}} segment matches one non-empty segment, percent-decoded.
     */
    static Map<String, String> parameters(String template, String rawPath) {
        String[] expected = template.split("/", -1);
        String[] given = rawPath.split("/", -1);
        if (expected.length != given.length) {
            return null;
        }
        Map<String, String> parameters = new HashMap<>();
        for (int i = 0; i < expected.length; i++) {
            if (expected[i].startsWith("{") && !given[i].isEmpty()) {
                parameters.put(expected[i].substring(1, expected[i].length() - 1),
                        QueryStringDecoder.decodeComponent(given[i]));
            } else if (!expected[i].equals(given[i])) {
                return null;
            }
        }
        return parameters;
    }

    private final ServerHandler handler;
    private final BrowserRules rules;
    private final ServerOptions bound;
    private final LongSupplier sessionIds;
    private final MemoryBudget budget;
    /** The routes: each path template with the actions of its methods; no two templates match one path. */
    final Map<String, Map<HttpMethod, Consumer<Exchange>>> routes = new LinkedHashMap<>();

    /**
     * @param budget what the calls' and event streams' pushed messages draw on, each session with an
     *               account of its own (null for none)
     */
    RestApi(ServerHandler handler, ServerOptions bound, LongSupplier sessionIds, MemoryBudget budget) {
        this.handler = handler;
        this.rules = new BrowserRules(bound);
        this.bound = bound;
        this.sessionIds = sessionIds;
        this.budget = budget;
        route(HttpMethod.GET, "/", file("www/" + PAGE.get(0)));
        for (String file : PAGE) {
            route(HttpMethod.GET, "/" + file, file("www/" + file));
        }
        route(HttpMethod.GET, "/api/" + OPENAPI, file(OPENAPI));
        route(HttpMethod.GET, HttpTransportProvider.WEBSOCKET_PATH, ex -> ex.respond(Replies.error(
                HttpResponseStatus.UPGRADE_REQUIRED, "UPGRADE_REQUIRED",
                "this path is the salgate clients' WebSocket: open it with a WebSocket handshake")));
        route(HttpMethod.GET, "/api/sensors/{id}", this::describeSensor);
        route(HttpMethod.GET, "/api/sensors/{id}/stream", this::stream);
        route(HttpMethod.GET, "/api/session", this::session);
        // subscribed before the headers go out: every event after them is sent
        route(HttpMethod.GET, "/api/events", ex -> answer(ex, (session, hello, events) ->
                expect(session.call(new Call.SubscribeEvents())).thenApply(subscribed -> {
                    events.begin(session);
                    return null;
                })));
        call(HttpMethod.GET, "/api/sensors", ex -> new Call.ListSensors(Boolean.parseBoolean(ex.query("active"))));
        call(HttpMethod.POST, "/api/sensors", ex -> new Call.AddSensor(ex.body()));
        call(HttpMethod.DELETE, "/api/sensors/{id}", ex -> new Call.RemoveSensor(ex.parameter("id")));
        call(HttpMethod.GET, "/api/sensors/{id}/commands", ex -> new Call.ListCommands(ex.parameter("id")));
        call(HttpMethod.POST, "/api/sensors/{id}/commands/{command}",
                ex -> new Call.Execute(ex.parameter("id"), ex.parameter("command"), arguments(ex)));
        call(HttpMethod.GET, "/api/protocols", ex -> new Call.ListProtocols());
        call(HttpMethod.POST, "/api/protocols", ex -> new Call.AddProtocol(ex.body()));
        call(HttpMethod.DELETE, "/api/protocols/{name}", ex -> new Call.RemoveProtocol(ex.parameter("name")));
        call(HttpMethod.GET, "/api/config", ex -> new Call.GetPlatformConfig());
    }

    private void route(HttpMethod method, String template, Consumer<Exchange> action) {
        routes.computeIfAbsent(template, t -> new LinkedHashMap<>()).put(method, action);
    }

    /**
     * A route that makes one call, the one {@code request} reads from the request, and answers with
     * its result as the OpenAPI document describes it: a document as XML, an acknowledgement as 204,
     * anything else as JSON, 201 for what a POST added.
     */
    private void call(HttpMethod method, String template, Function<Exchange, Call> request) {
        route(method, template, ex -> {
            Call call = request.apply(ex);
            HttpResponseStatus status = method.equals(HttpMethod.POST) && !(call instanceof Call.Execute)
                    ? HttpResponseStatus.CREATED : HttpResponseStatus.OK;
            answer(ex, (session, hello, events) -> expect(session.call(call)).thenApply(result -> {
                if (result instanceof Result.Document document) {
                    return Replies.xml(document.xml());
                }
                if (result instanceof Result.Ack) {
                    return Replies.empty(HttpResponseStatus.NO_CONTENT);
                }
                return Replies.json(status, result instanceof Result.ReadingResult r ? EventStream.reading(r.reading())
                        : result instanceof Result.Sensors s ? s.sensors()
                        : result instanceof Result.Sensor s ? s.sensor()
                        : result instanceof Result.Protocols p ? p.protocols() : result);
            }));
        });
    }

    /** The action of a route that answers with a file of this jar, read now, typed by its name. */
    private static Consumer<Exchange> file(String name) {
        byte[] body = resource(name);
        String type = URLConnection.guessContentTypeFromName(name) + "; charset=utf-8";
        return ex -> {
            FullHttpResponse response = Replies.of(HttpResponseStatus.OK, type, body);
            response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
            ex.respond(response);
        };
    }

    /** The bytes of a file of this jar, named relative to this class. */
    static byte[] resource(String name) {
        try (InputStream in = RestApi.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + name + "; it was built wrongly");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + " from the jar", e);
        }
    }

    /** The browser rules' refusal, or 401 for the API without a token the agent admits; each logged with its peer. */
    @Override
    public FullHttpResponse refusal(HttpRequest request, Channel channel) {
        FullHttpResponse refused = rules.refusal(request, channel);
        String path = new QueryStringDecoder(request.uri()).path();
        String token = Exchange.bearerToken(request);
        if (refused == null && path.startsWith("/api/") && !path.equals("/api/" + OPENAPI)
                && !path.equals(HttpTransportProvider.WEBSOCKET_PATH) && !admits(token)) {
            refused = Replies.unauthenticated(!token.isEmpty());
        }
        if (refused != null) {
            PEERS.log(refused.status().toString(), "refusing a request from {}: {}", channel.remoteAddress(),
                    refused.content().toString(StandardCharsets.UTF_8));
        }
        return refused;
    }

    private boolean admits(String token) {
        try {
            return handler.admits(token);
        } catch (RuntimeException e) {
            LOG.warn("the server handler failed checking a bearer token", e);
            return false;
        }
    }

    /** Answers a request by its route, or 405 naming the methods its path takes, or 404. */
    @Override
    public void answer(Exchange ex) {
        for (var route : routes.entrySet()) {
            Map<String, String> parameters = parameters(route.getKey(), ex.path());
            Consumer<Exchange> action = parameters == null ? null : route.getValue().get(ex.request().method());
            if (action != null) {
                ex.parameters(parameters);
                try {
                    action.accept(ex);
                } catch (Failed malformed) { // a route's arguments, read before any call
                    ex.respond(errorReply(malformed, false));
                }
                return;
            } else if (parameters != null) {
                String allowed = route.getValue().keySet().stream().map(HttpMethod::name).collect(Collectors.joining(", "));
                FullHttpResponse response = Replies.error(HttpResponseStatus.METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED",
                        ex.path() + " does not take " + ex.request().method() + "; it takes " + allowed);
                response.headers().set(HttpHeaderNames.ALLOW, allowed);
                ex.respond(response);
                return;
            }
        }
        ex.respond(Replies.error(HttpResponseStatus.NOT_FOUND, "NOT_FOUND", "no such path: " + ex.path()
                + "; the API is described at /api/" + OPENAPI));
    }

    // ------------------------------------------------------------------ the routes

    private void describeSensor(Exchange ex) {
        String id = ex.parameter("id");
        boolean xml = ex.wantsXml();
        Call describe = new Call.DescribeSensor(id);
        answer(ex, (session, hello, events) -> expect(session.call(describe)).thenCompose(described -> xml
                ? CompletableFuture.completedFuture(Replies.xml(((Result.Document) described).xml()))
                : expect(session.call(new Call.ListSensors(false))).thenApply(listed -> {
                    var sensor = ((Result.Sensors) listed).sensors().stream().filter(s -> s.id().equals(id)).findFirst()
                            .orElseThrow(() -> new CompletionException(new Failed(ErrorCode.UNKNOWN_SENSOR,
                                    "sensor '" + id + "' was removed")));
                    ObjectNode node = Replies.JSON.valueToTree(sensor);
                    node.put("sensorML", "/api/sensors/" + id + " with Accept: application/xml");
                    node.put("commands", "/api/sensors/" + id + "/commands");
                    return Replies.json(HttpResponseStatus.OK, node);
                })));
    }

    /**
     * The caller's role, as the agent's hello reply gave it to this call's session, and whether the
     * agent asks for a token at all. No call is made: a reader is not refused anything to find out.
     * A handler that names no role (not the agent's) counts as admin when it lets everyone in, else
     * as reader, the role that may do least.
     */
    private void session(Exchange ex) {
        boolean tokenRequired = !handler.admits("");
        answer(ex, (session, hello, events) -> CompletableFuture.completedFuture(Replies.json(HttpResponseStatus.OK,
                Replies.JSON.createObjectNode().put("role", !hello.role().isEmpty() ? hello.role()
                        : tokenRequired ? "reader" : "admin").put("tokenRequired", tokenRequired))));
    }

    /** A stream's readings: set up, then the headers, then started, so that its first reading follows them. */
    private void stream(Exchange ex) {
        String interval = ex.query("interval");
        String shared = ex.query("shared");
        long millis;
        try {
            millis = interval == null ? DEFAULT_INTERVAL_MILLIS : Long.parseLong(interval);
        } catch (NumberFormatException e) {
            throw badArgument("interval", "must be a whole number of milliseconds, got '" + interval + "'");
        }
        if (shared != null && !shared.equalsIgnoreCase("true") && !shared.equalsIgnoreCase("false")) {
            throw badArgument("shared", "must be true or false, got '" + shared + "'");
        }
        Call setup = new Call.SetupStream(ex.parameter("id"), Objects.requireNonNullElse(ex.query("command"),
                DEFAULT_COMMAND), ex.queryExcept("command", "interval", "shared"), millis, null,
                Boolean.parseBoolean(shared));
        answer(ex, (session, hello, events) -> expect(session.call(setup)).thenCompose(handle -> {
            events.begin(session);
            return expect(session.call(new Call.StartStream(((Result.StreamHandle) handle).streamId())));
        }).thenApply(started -> null));
    }

    /** A command's arguments: the query's parameters, then a JSON object body's members. */
    private static Map<String, String> arguments(Exchange ex) {
        Map<String, String> arguments = new LinkedHashMap<>(ex.queryExcept());
        if (ex.body().isBlank()) {
            return arguments;
        }
        String form = "must be a JSON object whose members are strings, numbers or booleans, such as {\"size\": 1024}";
        Map<String, String> members;
        try {
            members = ARGUMENTS.readValue(ex.body());
        } catch (JsonProcessingException e) {
            throw badArgument("body", form + ": " + e.getOriginalMessage());
        }
        if (members == null || members.containsValue(null)) {
            throw badArgument("body", form);
        }
        arguments.putAll(members);
        return arguments;
    }

    // ------------------------------------------------------------------ sessions and errors

    /** What a request does with its session once the agent accepted its hello. */
    private interface Work {
        /**
         * @return the response, after which the session closes; or null, once the work has begun
         *         {@code events}, whose session lasts as long as the connection
         */
        CompletableFuture<FullHttpResponse> start(BridgeSession session, HelloReply hello, EventStream events);
    }

    /**
     * A request's life: open a session pushing into its {@link EventStream}, say hello with the
     * request's bearer token, then {@code work}; its response or its failure answers the request, as
     * the events' {@link EventStream#finish} does once they have begun. The agent refuses the hello for
     * its credentials (401) or because it serves its maximum of sessions (503). The session closes
     * with its connection, which the server closes when it stops, and the budget's eviction too.
     */
    private void answer(Exchange ex, Work work) {
        EventStream events = new EventStream(ex);
        var channel = ex.channel();
        String name = "http " + ex.remoteAddress();
        MemoryBudget.Account account = budget == null ? null : budget.open(name, channel::close);
        BridgeSession session = BridgeSession.open(handler, sessionIds.getAsLong(), name, events::writable, events,
                bound, account);
        channel.closeFuture().addListener(f -> session.closeByCaller());
        session.hello(name, bound.codec().name(), ex.bearerToken()).thenCompose(hello -> hello.accepted()
                ? work.start(session, hello, events)
                : CompletableFuture.failedFuture(new Failed(hello.code(), hello.error())))
                .whenComplete((response, error) -> {
                    if (response != null || error != null) {
                        session.closeByCaller();
                        events.finish(error == null ? response : errorReply(error, !ex.bearerToken().isEmpty()));
                    }
                });
    }

    /** The result, or a failed future carrying the agent's {@link Result.Failure}. */
    private static CompletableFuture<Result> expect(CompletableFuture<Result> answer) {
        return answer.thenCompose(result -> result instanceof Result.Failure failure
                ? CompletableFuture.failedFuture(new Failed(failure.code(), failure.message()))
                : CompletableFuture.completedFuture(result));
    }

    /**
     * The JSON error for a failed call. A refusal of the caller's credentials says how HTTP carries a
     * token, whatever the agent's advice to its command-line clients.
     */
    static FullHttpResponse errorReply(Throwable error, boolean tokenGiven) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof Failed failed) {
            return failed.code == ErrorCode.UNAUTHENTICATED ? Replies.unauthenticated(tokenGiven)
                    : Replies.error(statusOf(failed.code), failed.code.name(), failed.getMessage());
        }
        if (cause instanceof BridgeSession.SessionClosedException) {
            return Replies.error(HttpResponseStatus.SERVICE_UNAVAILABLE, "UNAVAILABLE",
                    "the agent closed the session before answering; it may be stopping");
        }
        LOG.warn("a REST call failed", cause);
        return Replies.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "INTERNAL",
                "the agent failed to answer this request; its log has the details");
    }

    /** The HTTP status for one of the agent's error codes: a new code does not compile until it is given one. */
    static HttpResponseStatus statusOf(ErrorCode code) {
        return switch (code) {
            case UNKNOWN_SENSOR, UNKNOWN_COMMAND, UNKNOWN_STREAM, UNKNOWN_PROTOCOL -> HttpResponseStatus.NOT_FOUND;
            case INVALID_ARGUMENT, INVALID_DOCUMENT, PROTOCOL_ERROR -> HttpResponseStatus.BAD_REQUEST;
            case CONFLICT -> HttpResponseStatus.CONFLICT;
            case PLUGIN_FAILURE -> HttpResponseStatus.BAD_GATEWAY;
            case UNSUPPORTED -> HttpResponseStatus.NOT_IMPLEMENTED;
            case OVERLOADED -> HttpResponseStatus.SERVICE_UNAVAILABLE;
            case UNAUTHENTICATED -> HttpResponseStatus.UNAUTHORIZED;
            case PERMISSION_DENIED -> HttpResponseStatus.FORBIDDEN;
            case INTERNAL -> HttpResponseStatus.INTERNAL_SERVER_ERROR;
        };
    }

    /** The agent refused a call or the hello, in its words, or a request's argument is malformed. */
    static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final ErrorCode code;

        Failed(ErrorCode code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    /** A malformed request argument, as the agent's own INVALID_ARGUMENT failure (400) naming it. */
    private static Failed badArgument(String argument, String why) {
        return new Failed(ErrorCode.INVALID_ARGUMENT, "argument '" + argument + "' " + why);
    }
}
