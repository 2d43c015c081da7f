package org.salgate.transport.grpc.service;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import java.util.function.BooleanSupplier;
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
 * streaming call) or the call ends (a call that sends one message); the answer of a unary call until
 * it ends; what gRPC holds for a streaming answer that is not ready ({@link #holdWhileNotReady}). A
 * take the budget refuses closes the connection ({@link Connections.Connection#close}).
 *
 * <p>Until the call is admitted (a typed call by its bearer token, {@link ServerHandler#admits}; a
 * session stream once the agent accepts its hello, {@link #admitWhen}) a message above a small
 * allowance cuts the call with RESOURCE_EXHAUSTED, so that a peer without credentials cannot make
 * the agent hold large messages. It also keeps the status the stream closed with, which a cancel
 * handler is not told ({@link #closedWithError}), and, for {@link CallContext}, the caller's address
 * and bearer token. It is the current {@link Context}'s while the call's service runs ({@link #current}).
 */
public final class CallBudget extends ServerStreamTracer {

    /** The largest message of a call not admitted yet: a hello or a request is far smaller. */
    public static final int UNADMITTED_MESSAGE_BYTES = 64 * 1024;

    private static final Context.Key<CallBudget> KEY = Context.key("salgate-call-budget");
    private static final RateLimitedLog LOG = new RateLimitedLog(LoggerFactory.getLogger(CallBudget.class),
            Level.WARN);

    /**
     * The budgets of a server of {@code handler} whose messages may be at most {@code maxMessageBytes},
     * one for each stream; a call of the typed service is admitted by its token as the stream opens.
     */
    public static ServerStreamTracer.Factory factory(ServerHandler handler, int maxMessageBytes) {
        return new ServerStreamTracer.Factory() {
            @Override
            public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
                String token = CallContext.bearerToken(headers.get(CallContext.AUTHORIZATION));
                boolean admitted = fullMethodName.startsWith(SalGrpc.SERVICE_NAME + "/") && handler.admits(token);
                return new CallBudget(fullMethodName, token, admitted ? maxMessageBytes
                        : Math.min(maxMessageBytes, UNADMITTED_MESSAGE_BYTES));
            }
        };
    }

    private final String method;
    /** The bearer token of the call's {@code authorization} metadata, or the empty string. */
    final String token;
    private final int allowance;
    /** The caller's address; set as the call starts. */
    volatile String remote = "unknown";
    /** Guarded by this. */
    private IntSupplier admission;
    private Connections.Connection connection;
    private boolean releaseWhenRead;
    private boolean chargeAnswers;
    private SerializedCall<?, ?> call;
    /** Bytes this call holds in its connection's account now. */
    private long held;
    /** Of {@link #held}: what is held for gRPC's buffer while the answer stream is not ready. */
    private long notReady;
    /** Bytes of the message the deframer is reading. */
    private long message;
    /** Cut or closed: nothing more is charged. */
    private boolean done;
    private volatile Status closed;

    private CallBudget(String method, String token, int allowance) {
        this.method = method;
        this.token = token;
        this.allowance = allowance;
    }

    /** The budget of the current call, or null outside a call of this server. */
    public static CallBudget current() {
        return KEY.get();
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
        MethodDescriptor.MethodType type = call.getMethodDescriptor().getType();
        this.call = call;
        this.connection = connection;
        releaseWhenRead = !type.clientSendsOneMessage();
        chargeAnswers = type.serverSendsOneMessage();
        if (connection != null) {
            remote = connection.remote;
        }
    }

    /** From now on each message may be as large as {@code limit} says as it arrives (a session's, per its hello). */
    public synchronized void admitWhen(IntSupplier limit) {
        this.admission = limit;
    }

    @Override
    public void inboundWireSize(long bytes) {
        SerializedCall<?, ?> target;
        int limit;
        synchronized (this) {
            if (done) {
                return;
            }
            message += bytes;
            limit = admission != null ? admission.getAsInt() : allowance;
            if (message <= limit) {
                take(bytes);
                return;
            }
            done = true;
            give(held);
            target = call;
        }
        // outside the lock: a service sending on the call holds the call's lock and then this one's
        String why = "a message of a call without admitted credentials may be at most " + limit + " bytes; present"
                + " a valid token (authorization: Bearer <token>) or say hello first";
        LOG.log("unadmitted", "cutting the call {} of {}: {}", method, remote, why);
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

    @Override
    public synchronized void outboundWireSize(long bytes) {
        if (chargeAnswers && !done) {
            take(bytes);
        }
    }

    /**
     * The answer stream is not ready, so gRPC holds at least its ready threshold: hold {@code bytes}
     * (the threshold and the last batch) until the stream's on-ready handler calls {@link #ready()};
     * once held, further calls change nothing. Given back at once if {@code isReady} says the stream
     * turned ready meanwhile (its handler may have run before the hold).
     */
    public void holdWhileNotReady(long bytes, BooleanSupplier isReady) {
        synchronized (this) {
            if (done || notReady > 0 || !take(bytes)) {
                return;
            }
            notReady = bytes;
        }
        if (isReady.getAsBoolean()) {
            ready();
        }
    }

    /** The answer stream is ready again: what was held for gRPC's buffer is given back. */
    public synchronized void ready() {
        give(notReady);
        notReady = 0;
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
