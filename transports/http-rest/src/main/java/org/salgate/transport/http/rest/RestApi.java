package org.salgate.transport.http.rest;

import org.salgate.transport.http.Exchange;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.HelloReply;
import org.salgate.transport.MemoryBudget;
import org.salgate.wire.Message;
import org.salgate.model.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST/JSON API, the event streams and the web page: each call is one {@link BridgeSession} on
 * the agent's {@link ServerHandler} (hello with the request's bearer token, the call, close), each
 * event stream one session for as long as it lasts. The agent's refusals come back as JSON errors
 * with the agent's own words and a status that fits their code.
 */
final class RestApi {

    private static final Logger LOG = LoggerFactory.getLogger(RestApi.class);

    /** The command a stream reads when the request names none: every built-in sensor has it. */
    private static final String DEFAULT_COMMAND = "read";
    /** The interval of a stream whose request gives none, in milliseconds. */
    private static final long DEFAULT_INTERVAL_MILLIS = 1_000;

    private final ServerHandler handler;
    private final String codecName;
    private final ServerOptions bound;
    private final LongSupplier sessionIds;
    private final MemoryBudget budget;
    private final Router router = new Router();
    private final StaticFiles files = new StaticFiles();
    private final Set<BridgeSession> open = ConcurrentHashMap.newKeySet();

    /**
     * @param budget what the calls' and event streams' pushed messages draw on, each session with an
     *               account of its own (null for none)
     */
    RestApi(ServerHandler handler, ServerOptions bound, LongSupplier sessionIds, MemoryBudget budget) {
        this.handler = handler;
        this.budget = budget;
        this.codecName = bound.codec().name();
        this.bound = bound;
        this.sessionIds = sessionIds;
        for (String file : StaticFiles.FILES) {
            router.add(HttpMethod.GET, "/" + file, ex -> ex.respond(files.get(file)));
        }
        router.add(HttpMethod.GET, "/", ex -> ex.respond(files.get(StaticFiles.INDEX)))
                .add(HttpMethod.GET, "/api/openapi.json", ex -> ex.respond(files.openApi()))
                .add(HttpMethod.GET, HttpTransportProvider.WEBSOCKET_PATH, ex -> ex.respond(Replies.error(
                        HttpResponseStatus.UPGRADE_REQUIRED, "UPGRADE_REQUIRED",
                        "this path is the salgate clients' WebSocket: open it with a WebSocket handshake")))
                .add(HttpMethod.GET, "/api/sensors/{id}", this::describeSensor)
                .add(HttpMethod.GET, "/api/sensors/{id}/stream", this::stream)
                .add(HttpMethod.GET, "/api/session", this::session)
                .add(HttpMethod.GET, "/api/events", this::events);
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

    /**
     * A route that makes one call, the one {@code request} reads from the request, and answers with
     * its result ({@link #reply}).
     */
    private void call(HttpMethod method, String template, Function<Exchange, Call> request) {
        router.add(method, template, ex -> {
            Call call = request.apply(ex);
            boolean adds = method.equals(HttpMethod.POST) && !(call instanceof Call.Execute);
            answer(ex, (session, hello) -> expect(session.call(call)).thenApply(r -> reply(r, adds)));
        });
    }

    /**
     * A call's result as the OpenAPI document describes it: a document as XML, an acknowledgement as
     * 204, anything else as JSON ({@link JsonViews}), 201 for what a POST added.
     */
    private static FullHttpResponse reply(Result result, boolean added) {
        if (result instanceof Result.Document document) {
            return Replies.xml(document.xml());
        }
        if (result instanceof Result.Ack) {
            return Replies.empty(HttpResponseStatus.NO_CONTENT);
        }
        return Replies.json(added ? HttpResponseStatus.CREATED : HttpResponseStatus.OK, JsonViews.of(result));
    }

    Router router() {
        return router;
    }

    void dispatch(Exchange ex) {
        Router.Match match = router.match(ex.request().method(), ex.path());
        if (match.route() != null) {
            ex.parameters(match.parameters());
            try {
                match.route().action().accept(ex);
            } catch (Failed malformed) { // a route's arguments, read before any call
                ex.respond(errorReply(malformed));
            }
        } else if (!match.allowed().isEmpty()) {
            String allowed = match.allowed().stream().map(HttpMethod::name).collect(Collectors.joining(", "));
            FullHttpResponse response = Replies.error(HttpResponseStatus.METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED",
                    ex.path() + " does not take " + ex.request().method() + "; it takes " + allowed);
            response.headers().set(HttpHeaderNames.ALLOW, allowed);
            ex.respond(response);
        } else {
            ex.respond(Replies.error(HttpResponseStatus.NOT_FOUND, "NOT_FOUND", "no such path: " + ex.path()
                    + "; the API is described at /api/openapi.json"));
        }
    }

    /** Closes the sessions still open, when the server stops. */
    void closeAll() {
        for (BridgeSession session : open) {
            session.closeByCaller();
        }
    }

    // ------------------------------------------------------------------ the routes

    private void describeSensor(Exchange ex) {
        String id = ex.parameter("id");
        boolean xml = ex.wantsXml();
        answer(ex, (session, hello) -> expect(session.call(new Call.DescribeSensor(id))).thenCompose(described -> {
            if (xml) {
                return CompletableFuture.completedFuture(Replies.xml(((Result.Document) described).xml()));
            }
            return expect(session.call(new Call.ListSensors(false))).thenApply(listed -> {
                var sensor = ((Result.Sensors) listed).sensors().stream().filter(s -> s.id().equals(id)).findFirst()
                        .orElseThrow(() -> new CompletionException(new Failed(new Result.Failure(
                                ErrorCode.UNKNOWN_SENSOR, "sensor '" + id + "' was removed"))));
                var node = JsonViews.sensor(sensor);
                node.put("sensorML", "/api/sensors/" + id + " with Accept: application/xml");
                node.put("commands", "/api/sensors/" + id + "/commands");
                return Replies.json(HttpResponseStatus.OK, node);
            });
        }));
    }

    /**
     * The caller's role, as the agent's hello reply gave it to this call's session, and whether the
     * agent asks for a token at all. No call is made: a reader is not refused anything to find out.
     * A handler that names no role (not the agent's) counts as admin when it lets everyone in, else
     * as reader, the role that may do least.
     */
    private void session(Exchange ex) {
        boolean tokenRequired = !handler.admits("");
        answer(ex, (session, hello) -> CompletableFuture.completedFuture(Replies.json(HttpResponseStatus.OK,
                Replies.JSON.createObjectNode().put("role", !hello.role().isEmpty() ? hello.role()
                        : tokenRequired ? "reader" : "admin").put("tokenRequired", tokenRequired))));
    }

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
        pushes(ex, (session, events) -> expect(session.call(setup)).thenCompose(handle -> {
            events.begin(session);
            return expect(session.call(new Call.StartStream(((Result.StreamHandle) handle).streamId())));
        }));
    }

    private void events(Exchange ex) {
        // subscribed first: every event after the headers is sent
        pushes(ex, (session, events) -> expect(session.call(new Call.SubscribeEvents()))
                .thenRun(() -> events.begin(session)));
    }

    /**
     * An event stream's life: open, hello, {@code start}, which begins the {@link EventStream}; a
     * failure before it began answers the request, after it an {@code error} event ends the stream.
     */
    private void pushes(Exchange ex, BiFunction<BridgeSession, EventStream, CompletableFuture<?>> start) {
        EventStream events = new EventStream(ex);
        BridgeSession session = open(ex, events);
        greet(ex, session).thenCompose(greeted -> start.apply(session, events)).whenComplete((started, error) -> {
            if (error != null && events.begun()) {
                events.fail(errorReply(error));
            } else if (error != null) {
                session.closeByCaller();
                ex.respond(errorReply(error));
            }
        });
    }

    // ------------------------------------------------------------------ sessions and errors

    private BridgeSession open(Exchange ex, BridgeSession.Sink sink) {
        var channel = ex.channel();
        String name = "http " + ex.remoteAddress();
        // The budget's eviction closes the connection, which closes the session below.
        MemoryBudget.Account account = budget == null ? null : budget.open(name, channel::close);
        BridgeSession session = BridgeSession.open(handler, sessionIds.getAsLong(), name,
                channel::isWritable, sink, bound, account);
        open.add(session);
        channel.closeFuture().addListener(f -> {
            session.closeByCaller();
            open.remove(session);
        });
        return session;
    }

    /**
     * Says hello with the request's bearer token; completes with the agent's acceptance, or fails when
     * the agent refuses: for its credentials ({@link Refused}, 401) or because it serves its maximum
     * of sessions ({@link Failed}, OVERLOADED, 503).
     */
    private CompletableFuture<HelloReply> greet(Exchange ex, BridgeSession session) {
        String token = ex.bearerToken();
        return session.hello("http " + ex.remoteAddress(), codecName, token).thenApply(reply -> {
            if (!reply.accepted()) {
                throw new CompletionException(reply.code() == ErrorCode.OVERLOADED
                        ? new Failed(new Result.Failure(ErrorCode.OVERLOADED, reply.error()))
                        : new Refused(!token.isEmpty()));
            }
            return reply;
        });
    }

    /**
     * One call's life: open, hello, {@code work} (given the agent's accepted hello reply), close; its
     * outcome or its failure answers the request.
     */
    private void answer(Exchange ex, BiFunction<BridgeSession, HelloReply, CompletableFuture<FullHttpResponse>> work) {
        BridgeSession session = open(ex, NO_PUSHES);
        greet(ex, session).thenCompose(hello -> work.apply(session, hello)).whenComplete((response, error) -> {
            session.closeByCaller();
            open.remove(session);
            ex.respond(error == null ? response : errorReply(error));
        });
    }

    /** The result, or a failed future carrying the agent's {@link Result.Failure}. */
    private static CompletableFuture<Result> expect(CompletableFuture<Result> answer) {
        return answer.thenApply(result -> {
            if (result instanceof Result.Failure failure) {
                throw new CompletionException(new Failed(failure));
            }
            return result;
        });
    }

    /** The JSON error for a failed call. */
    static FullHttpResponse errorReply(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof Failed failed) {
            ErrorCode code = failed.failure.code();
            return Replies.error(statusOf(code), code.name(), failed.failure.message());
        }
        if (cause instanceof Refused refused) {
            return Replies.unauthenticated(refused.tokenGiven);
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

    /** A command's arguments: the query's parameters, then a JSON object body's members. */
    private static Map<String, String> arguments(Exchange ex) {
        Map<String, String> arguments = new LinkedHashMap<>(ex.queryExcept());
        String body = ex.body().trim();
        if (body.isEmpty()) {
            return arguments;
        }
        JsonNode node;
        try {
            node = Replies.JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw badArgument("body", "must be a JSON object of arguments: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw badArgument("body", "must be a JSON object of arguments, such as {\"size\": 1024}");
        }
        for (var field : node.properties()) {
            if (!field.getValue().isValueNode() || field.getValue().isNull()) {
                throw badArgument(field.getKey(), "must be a string, a number or a boolean");
            }
            arguments.put(field.getKey(), field.getValue().asText());
        }
        return arguments;
    }

    private static final BridgeSession.Sink NO_PUSHES = new BridgeSession.Sink() {
        @Override
        public void pushed(Message message) {
            LOG.debug("a REST call's session was pushed a {}; ignored", message.getClass().getSimpleName());
        }

        @Override
        public void closed(boolean byAgent) {
        }
    };

    /** The agent answered a call with a failure. */
    static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Result.Failure failure;

        Failed(Result.Failure failure) {
            super(failure.code() + ": " + failure.message(), null, false, false);
            this.failure = failure;
        }
    }

    /** The agent refused the hello's credentials. */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final boolean tokenGiven;

        Refused(boolean tokenGiven) {
            super("refused", null, false, false);
            this.tokenGiven = tokenGiven;
        }
    }

    /** A malformed request argument, as the agent's own INVALID_ARGUMENT failure (400) naming it. */
    private static Failed badArgument(String argument, String why) {
        return new Failed(new Result.Failure(ErrorCode.INVALID_ARGUMENT, "argument '" + argument + "' " + why));
    }
}
