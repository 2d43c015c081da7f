package org.salgate.transport.grpc.service;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import java.util.function.IntSupplier;
import org.salgate.transport.RateLimitedLog;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.grpc.proto.SalGrpc;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * What one call (one HTTP/2 stream) holds, charged to its connection's account in the server's
 * memory budget as gRPC reports it ({@link ServerStreamTracer} callbacks, on the connection's event
 * loop): inbound message bytes as the deframer reads them, until the message is whole (a
 * streaming call) or the call ends (a call that sends one message); each answer until the stream
 * is ready after it ({@link #ready}). A take the budget refuses closes the connection
 * ({@link Connections.Connection#close}).
 *
 * <p>Until the call is admitted (a typed call by its bearer token, {@link ServerHandler#admits}; a
 * session stream once the agent accepts its hello, {@link #admitWhen}) a message above a small
 * allowance cuts the call with RESOURCE_EXHAUSTED, so that a peer without credentials cannot make
 * the agent hold large messages. It also keeps the status the stream closed with, which a cancel
 * handler is not told ({@link #closedWithError}), and the caller's bearer token; it names the caller
 * by its connection. It is the current {@link Context}'s while the call's service runs ({@link #current}).
 */
public final class CallBudget extends ServerStreamTracer {

    /** The largest message of a call not admitted yet: a hello or a request is far smaller. */
    public static final int UNADMITTED_MESSAGE_BYTES = 64 * 1024;
    /** The metadata that carries the caller's credentials, as {@code Bearer <token>}. */
    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final String BEARER = "Bearer ";

    private static final Context.Key<CallBudget> KEY = Context.key("salgate-call-budget");
    private static final RateLimitedLog LOG = new RateLimitedLog(LoggerFactory.getLogger(CallBudget.class),
            Level.WARN);

    /**
     * The budgets of a server of {@code handler}, one for each stream; a call of the typed service is
     * admitted by its token as the stream opens. An admitted call's messages are bounded by gRPC's own
     * maximum message size alone. gRPC may buffer {@code readyThreshold} bytes of an answer stream
     * before it says it is not ready; what waits beyond it waits in the call's own queue.
     */
    public static ServerStreamTracer.Factory factory(ServerHandler handler, int readyThreshold) {
        return new ServerStreamTracer.Factory() {
            @Override
            public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
                String token = bearerToken(headers.get(AUTHORIZATION));
                boolean admitted = fullMethodName.startsWith(SalGrpc.SERVICE_NAME + "/") && handler.admits(token);
                return new CallBudget(token, admitted ? () -> Integer.MAX_VALUE
                        : () -> UNADMITTED_MESSAGE_BYTES, readyThreshold);
            }
        };
    }

    /** The token of an {@code authorization: Bearer <token>} value, or the empty string. */
    static String bearerToken(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return "";
        }
        return authorization.substring(BEARER.length()).trim();
    }

    private final String token;
    private final int readyThreshold;
    /** Guarded by this: the largest message the call may send now. */
    private IntSupplier limit;
    private Connections.Connection connection;
    private boolean releaseWhenRead;
    private SerializedCall<?, ?> call;
    /** Bytes this call holds in its connection's account now. */
    private long held;
    /** Of {@link #held}: the answers sent since the stream was last ready, which gRPC may hold still. */
    private long answers;
    /** Bytes of the message the deframer is reading. */
    private long message;
    /** Cut or closed: nothing more is charged. */
    private boolean done;
    private volatile Status closed;

    private CallBudget(String token, IntSupplier limit, int readyThreshold) {
        this.token = token;
        this.limit = limit;
        this.readyThreshold = readyThreshold;
    }

    /** The budget of the current call, which every call of a server with the {@link #factory} has. */
    public static CallBudget current() {
        return KEY.get();
    }

    /** The caller's address, for the agent's logs. */
    public synchronized String remoteAddress() {
        return connection == null ? "unknown" : connection.remote;
    }

    /** The bearer token of the call's {@code authorization} metadata (the hello's credentials), or the empty string. */
    public String credentials() {
        return token;
    }

    @Override
    public Context filterContext(Context context) {
        return context.withValue(KEY, this);
    }

    /**
     * The call starts on {@code connection} (null if it is not one of the listener's, which cannot
     * happen: nothing is charged then); {@code call} is the call as its service sees it, which a
     * message past the allowance closes. Before any message is read ({@link Connections}).
     */
    synchronized void start(SerializedCall<?, ?> call, Connections.Connection connection) {
        this.call = call;
        this.connection = connection;
        releaseWhenRead = !call.getMethodDescriptor().getType().clientSendsOneMessage();
        call.setOnReadyThreshold(readyThreshold);
    }

    /** From now on each message may be as large as {@code limit} says as it arrives (a session's, per its hello). */
    public synchronized void admitWhen(IntSupplier limit) {
        this.limit = limit;
    }

    @Override
    public void inboundWireSize(long bytes) {
        SerializedCall<?, ?> target;
        int max;
        synchronized (this) {
            if (done) {
                return;
            }
            message += bytes;
            max = limit.getAsInt();
            if (message <= max) {
                take(bytes);
                return;
            }
            done = true;
            give(held);
            target = call;
        }
        // outside the lock: a service sending on the call holds the call's lock and then this one's
        String why = "a message of a call without admitted credentials may be at most " + max + " bytes; present"
                + " a valid token (authorization: Bearer <token>) or say hello first";
        LOG.log("unadmitted", "cutting the call {} of {}: {}", target.getMethodDescriptor().getFullMethodName(),
                remoteAddress(), why);
        target.close(Status.RESOURCE_EXHAUSTED.withDescription(why), new Metadata());
    }

    /**
     * The deframer read a whole message. gRPC reads a message of a streaming call only once the
     * service asked for one (the stubs ask for the next as the service takes the last) and hands it
     * over as soon as it is whole: its bytes are given back now. A unary call's are held until it ends.
     */
    @Override
    public synchronized void inboundMessageRead(int seqNo, long optionalWireSize, long optionalUncompressedSize) {
        if (releaseWhenRead && !done) {
            give(message);
        }
        message = 0;
    }

    /** An answer is being sent: held until the stream is ready after it. */
    @Override
    public synchronized void outboundWireSize(long bytes) {
        if (!done && take(bytes)) {
            answers += bytes;
        }
    }

    /**
     * The stream is ready (after an answer went to gRPC, or its listener is told so): gRPC holds less
     * than its ready threshold, which the budget does not count, and the answers are given back.
     */
    synchronized void ready() {
        give(answers);
        answers = 0;
    }

    @Override
    public synchronized void streamClosed(Status status) {
        closed = status;
        done = true;
        give(held);
    }

    /** Why the stream ended when it was an error other than a cancel (a message above the limit), else null. */
    public Throwable closedWithError() {
        Status status = closed;
        return status == null || status.isOk() || status.getCode() == Status.Code.CANCELLED ? null : status.asException();
    }

    /**
     * Guarded by this. A take the budget refuses (which it logs, naming the connection) closes the
     * connection, on its event loop: nothing more is charged.
     */
    private boolean take(long bytes) {
        if (connection != null && !connection.account.take(bytes)) {
            done = true;
            connection.close();
            return false;
        }
        held += bytes;
        return true;
    }

    /** Guarded by this. */
    private void give(long bytes) {
        long back = Math.min(bytes, held);
        if (back > 0 && connection != null) {
            connection.account.give(back);
        }
        held -= back;
    }
}
