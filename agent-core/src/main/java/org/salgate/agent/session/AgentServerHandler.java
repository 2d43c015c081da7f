package org.salgate.agent.session;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.salgate.agent.core.CallException;
import org.salgate.agent.core.EventBus;
import org.salgate.agent.stream.StreamRegistry;
import org.salgate.transport.RateLimitedLog;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Operation;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The agent layer: greets each session (the first message must be a {@link Hello} with this
 * agent's protocol version and codec, and, when the agent has {@link Tokens}, one of them as its
 * credentials), then answers its requests within the role of that token: a refused hello is
 * answered {@link ErrorCode#UNAUTHENTICATED} and the session closed; a call the role may not make
 * is answered {@link ErrorCode#PERMISSION_DENIED}. Without tokens every session is
 * {@link Role#ADMIN}. The accepted hello's reply names the session's role. Cheap calls are answered on the
 * transport thread; the rest run on a bounded worker pool, and a request that finds the pool full
 * is answered {@link ErrorCode#OVERLOADED}. Every failure becomes a failure response; the session
 * and the agent keep working. A closed session's streams and event subscription are dropped.
 *
 * <p>What clients do is logged at most once a second per kind of line (see {@link RateLimitedLog}),
 * since a peer can do it thousands of times a second: a client that connects (its hello accepted),
 * is refused, is denied a call or disconnects after an error at INFO, one that breaks the protocol
 * at WARN; every line left out, and each normal disconnect, at DEBUG. So a quiet agent logs each
 * client once, as it connects, and a flood of sessions costs a line a second.
 */
public final class AgentServerHandler implements ServerHandler {

    private static final Logger LOG = LoggerFactory.getLogger(AgentServerHandler.class);
    private static final RateLimitedLog CLIENTS = new RateLimitedLog(LOG, Level.INFO);
    private static final RateLimitedLog PROTOCOL_ERRORS = new RateLimitedLog(LOG, Level.WARN);

    private final String agentId;
    private final String codecName;
    private final RequestDispatcher dispatcher;
    private final StreamRegistry streams;
    private final EventBus events;
    private final ExecutorService workers;
    private final Tokens tokens;
    private final Map<Long, SessionState> sessions = new ConcurrentHashMap<>();

    private static final class SessionState {
        volatile boolean greeted;
        /** Refused at its hello: nothing it sends afterwards is read. */
        volatile boolean refused;
        volatile String clientName = "";
        volatile Role role = Role.READER;
        /** Requests handed to the worker pool and not answered yet. */
        final AtomicInteger inFlight = new AtomicInteger();
    }

    /**
     * @param tokens the tokens a hello must carry one of, or null to let every session in as admin
     */
    public AgentServerHandler(String agentId, String codecName, RequestDispatcher dispatcher, StreamRegistry streams,
                              EventBus events, ExecutorService workers, Tokens tokens) {
        this.agentId = agentId;
        this.codecName = codecName;
        this.dispatcher = dispatcher;
        this.streams = streams;
        this.events = events;
        this.workers = workers;
        this.tokens = tokens;
    }

    /** How many sessions are open. */
    public int sessionCount() {
        return sessions.size();
    }

    /**
     * Whether a session has something under way that keeps it from being idle: a stream, an event
     * subscription or a request in flight.
     */
    public boolean isBusy(long sessionId) {
        SessionState state = sessions.get(sessionId);
        return state != null && state.inFlight.get() > 0 || streams.hasStreams(sessionId)
                || dispatcher.hasSubscription(sessionId);
    }

    @Override
    public boolean admits(String credentials) {
        return tokens == null || tokens.roleOf(credentials == null ? "" : credentials).isPresent();
    }

    @Override
    public void sessionOpened(Session session) {
        sessions.put(session.id(), new SessionState());
        session.setWritabilityListener(() -> dispatcher.writable(session.id()));
        LOG.debug("session {} opened from {}", session.id(), session.remoteAddress());
    }

    @Override
    public void messageReceived(Session session, Message message) {
        SessionState state = sessions.computeIfAbsent(session.id(), k -> new SessionState());
        if (state.refused) {
            return;
        }
        if (!state.greeted) {
            greet(session, state, message);
        } else if (message instanceof Request request) {
            dispatch(session, state, request);
        } else if (message instanceof Hello) {
            protocolError("session {} ({}) sent a second hello; closing it", session.id(), session.remoteAddress());
            session.close();
        } else {
            protocolError("session {} ({}) sent a {}, which clients do not send; ignored", session.id(),
                    session.remoteAddress(), message.getClass().getSimpleName());
        }
    }

    private void greet(Session session, SessionState state, Message message) {
        if (!(message instanceof Hello hello)) {
            protocolError("session {} ({}) sent a {} before its hello; closing it", session.id(),
                    session.remoteAddress(), message.getClass().getSimpleName());
            session.close();
            return;
        }
        String refusal = null;
        ErrorCode code = ErrorCode.PROTOCOL_ERROR;
        Role role = Role.ADMIN;
        if (hello.protocolVersion() != Hello.PROTOCOL_VERSION) {
            refusal = "protocol version " + hello.protocolVersion() + " is not supported: this agent speaks version "
                    + Hello.PROTOCOL_VERSION + ", so use a matching client.";
        } else if (!codecName.equals(hello.codec())) {
            refusal = "codec '" + hello.codec() + "' is not used by this agent: connect with codec '" + codecName
                    + "'.";
        } else if (tokens != null) {
            role = tokens.roleOf(hello.credentials()).orElse(null);
            if (role == null) {
                code = ErrorCode.UNAUTHENTICATED;
                refusal = hello.credentials().isEmpty()
                        ? "this agent requires a token: give one with --token or the SALGATE_TOKEN environment variable."
                        : "the token is not valid for this agent: check it against the agent's tokens file.";
            }
        }
        if (refusal != null) {
            state.clientName = hello.clientName();
            state.refused = true;
            client("refused", "client '{}' from {} (session {}) refused: {}", hello.clientName(),
                    session.remoteAddress(), session.id(), refusal);
            session.send(HelloReply.refuse(agentId, code, refusal));
            session.close();
            return;
        }
        state.clientName = hello.clientName();
        state.role = role;
        state.greeted = true;
        session.helloAccepted(); // before the reply: the client may send large frames once it has it
        session.send(HelloReply.accept(agentId, role.label()));
        if (session instanceof BridgeSession) { // opened for one call or stream: see client()
            LOG.debug("client '{}' connected from {} (session {}) as {}", hello.clientName(), session.remoteAddress(),
                    session.id(), role.label());
        } else {
            client("connected", "client '{}' connected from {} (session {}) as {}", hello.clientName(),
                    session.remoteAddress(), session.id(), role.label());
        }
    }

    private void dispatch(Session session, SessionState state, Request request) {
        if (!state.role.mayCall(request.call())
                || state.role != Role.ADMIN && dispatcher.writesDevice(request.call())) {
            String operation = request.call() instanceof Call.Execute e
                    ? "execute " + e.commandId() + " of " + e.sensorId() : Operation.of(request.call()).label();
            client("denied", "client '{}' from {} (session {}) denied {}: its token has the {} role",
                    state.clientName, session.remoteAddress(), session.id(), operation, state.role.label());
            session.send(Response.failure(request.id(), ErrorCode.PERMISSION_DENIED, "permission denied: '"
                    + operation + "' needs the admin role, and this connection's token has the "
                    + state.role.label() + " role; connect with an admin token."));
            return;
        }
        if (request.call() instanceof Call.StartStream start) {
            startStream(session, request.id(), start.streamId());
            return;
        }
        if (dispatcher.runsInline(request.call())) {
            session.send(new Response(request.id(), handle(session, request)));
            return;
        }
        CompletableFuture<Result> later = dispatcher.handleLater(request.call());
        if (later != null) { // waits for a device, holding no thread meanwhile
            state.inFlight.incrementAndGet();
            later.whenComplete((result, failure) -> {
                try {
                    if (session.isOpen()) {
                        session.send(new Response(request.id(), result != null ? result : new Result.Failure(
                                ErrorCode.INTERNAL, "the agent failed unexpectedly; its log has the details")));
                    }
                    if (failure != null) {
                        LOG.error("request {} of session {} failed unexpectedly", request.id(), session.id(), failure);
                    }
                } finally {
                    state.inFlight.decrementAndGet();
                }
            });
            return;
        }
        state.inFlight.incrementAndGet();
        try {
            workers.execute(() -> {
                try {
                    if (session.isOpen()) {
                        session.send(new Response(request.id(), handle(session, request)));
                    }
                } finally {
                    state.inFlight.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            state.inFlight.decrementAndGet();
            String why = workers.isShutdown() ? "the agent is stopping"
                    : "the agent is too busy to take this request now; retry later";
            session.send(Response.failure(request.id(), ErrorCode.OVERLOADED, why));
        }
    }

    /** Starts a stream; its answer is sent before the stream's first frame, never after. */
    private void startStream(Session session, long requestId, long streamId) {
        try {
            dispatcher.start(session, streamId, () -> session.send(new Response(requestId, Result.ack())));
        } catch (CallException e) {
            session.send(new Response(requestId, new Result.Failure(e.code(), e.getMessage())));
        } catch (RuntimeException e) {
            LOG.error("starting stream {} of session {} failed unexpectedly", streamId, session.id(), e);
            session.send(Response.failure(requestId, ErrorCode.INTERNAL,
                    "the agent failed unexpectedly starting the stream; its log has the details"));
        }
    }

    private Result handle(Session session, Request request) {
        try {
            return dispatcher.handle(session, request.call());
        } catch (CallException e) {
            return new Result.Failure(e.code(), e.getMessage());
        } catch (RuntimeException | LinkageError | AssertionError e) {
            String call = request.call().getClass().getSimpleName();
            LOG.error("request {} ({}) of session {} failed unexpectedly", request.id(), call, session.id(), e);
            return new Result.Failure(ErrorCode.INTERNAL, "the agent failed unexpectedly handling " + call
                    + "; its log has the details");
        }
    }

    @Override
    public void sessionClosed(Session session, Throwable cause) {
        SessionState state = sessions.remove(session.id());
        dispatcher.forgetSubscription(session.id());
        streams.discardSession(session.id());
        String who = state == null ? "a connection"
                : state.greeted ? "client '" + state.clientName + "'"
                : state.refused ? "refused client '" + state.clientName + "'"
                : "a connection that sent no hello";
        if (cause != null) {
            client("disconnected after an error", "{} from {} (session {}) disconnected after an error: {}",
                    who, session.remoteAddress(), session.id(), cause.getMessage());
        } else {
            LOG.debug("{} from {} (session {}) disconnected", who, session.remoteAddress(), session.id());
        }
    }

    /**
     * Logs what a client did: at INFO at most once a second per {@code kind} (the line after a quiet
     * second counts those left out), and at DEBUG when left out. Sessions a transport opens for its
     * own callers (a REST call, a typed gRPC call, a Server-Sent Events stream, the MQTT bridge) come
     * and go with each call: their connecting is logged at DEBUG only.
     */
    private static void client(String kind, String format, Object... args) {
        if (!CLIENTS.log(kind, format, args)) {
            LOG.debug(format, args);
        }
    }

    /** Logs a broken protocol at WARN at most once a second, and at DEBUG when left out. */
    private static void protocolError(String format, Object... args) {
        if (!PROTOCOL_ERRORS.log("protocol", format, args)) {
            LOG.debug(format, args);
        }
    }
}
