package org.salgate.transport.grpc.service;

import io.grpc.Context;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import java.util.ArrayDeque;
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
 * loop): inbound message bytes as the deframer reads them, until the message is delivered (a
 * streaming call) or the call ends (a call that sends one message); the answer of a unary call until
 * it ends; what gRPC holds for a streaming answer that is not ready ({@link #holdWhileNotReady}). A
 * take the budget refuses closes the connection ({@link GrpcConnection#close}).
 *
 * <p>Until the call is admitted (a typed call by its bearer token, {@link ServerHandler#admits}; a
 * session stream once the agent accepts its hello, {@link #admitWhen}) a message above a small
 * allowance cuts the call with RESOURCE_EXHAUSTED, so that a peer without credentials cannot make
 * the agent hold large messages. It also keeps the status the stream closed with, which a cancel
 * handler is not told ({@link #closedWithError}).
 */
public final class CallBudget extends ServerStreamTracer {

    /** The largest message of a call not admitted yet: a hello or a request is far smaller. */
    public static final int UNADMITTED_MESSAGE_BYTES = 64 * 1024;

    private static final Context.Key<CallBudget> KEY = Context.key("salgate-call-budget");
    private static final RateLimitedLog LOG = new RateLimitedLog(LoggerFactory.getLogger(CallBudget.class),
            Level.WARN);

    /** Makes each stream's budget; a call of the typed service is admitted by its token as the stream opens. */
    public static final class Factory extends ServerStreamTracer.Factory {
        private final ServerHandler handler;
        private final int maxMessageBytes;

        /** For a server of {@code handler} whose messages may be at most {@code maxMessageBytes}. */
        public Factory(ServerHandler handler, int maxMessageBytes) {
            this.handler = handler;
            this.maxMessageBytes = maxMessageBytes;
        }

        @Override
        public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
            boolean typed = fullMethodName.startsWith(SalGrpc.SERVICE_NAME + "/");
            boolean admitted = typed && handler.admits(CallContext.bearerToken(headers.get(CallContext.AUTHORIZATION)));
            return new CallBudget(fullMethodName, admitted ? maxMessageBytes
                    : Math.min(maxMessageBytes, UNADMITTED_MESSAGE_BYTES));
        }
    }

    private final String method;
    private final int allowance;
    /** Guarded by this. */
    private IntSupplier admission;
    private GrpcConnection connection;
    private boolean releaseOnDelivery;
    private boolean chargeAnswers;
    private SerializedCall<?, ?> call;
    /** Bytes this call holds in its connection's account now. */
    private long held;
    /** Of {@link #held}: what is held for gRPC's buffer while the answer stream is not ready. */
    private long notReady;
    /** Bytes of the message the deframer is reading. */
    private long message;
    /** Sizes of the whole messages not yet delivered to the service, oldest first. */
    private final ArrayDeque<Long> undelivered = new ArrayDeque<>();
    /** Cut or closed: nothing more is charged. */
    private boolean done;
    private volatile Status closed;

    /**
     * Installed on the server ahead of every service: gives each call's budget the call, serialized
     * so that the budget may cut it, and tells it when the service took a message of a streaming call.
     */
    public static final ServerInterceptor GUARD = new ServerInterceptor() {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                           ServerCallHandler<Q, R> next) {
            CallBudget budget = current();
            SerializedCall<Q, R> serialized = new SerializedCall<>(call);
            if (budget == null) {
                return next.startCall(serialized, headers);
            }
            budget.attach(serialized);
            ServerCall.Listener<Q> listener = next.startCall(serialized, headers);
            return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
                @Override
                public void onMessage(Q message) {
                    try {
                        super.onMessage(message);
                    } finally {
                        budget.delivered();
                    }
                }
            };
        }
    };

    private CallBudget(String method, int allowance) {
        this.method = method;
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

    @Override
    public void serverCallStarted(ServerCallInfo<?, ?> info) {
        MethodDescriptor.MethodType type = info.getMethodDescriptor().getType();
        synchronized (this) {
            connection = info.getAttributes().get(GrpcConnection.KEY);
            releaseOnDelivery = !type.clientSendsOneMessage();
            chargeAnswers = type.serverSendsOneMessage();
        }
    }

    /** The call as its service sees it, which {@link #cut} closes. Set before any message is read. */
    synchronized void attach(SerializedCall<?, ?> call) {
        this.call = call;
    }

    /** From now on each message may be as large as {@code limit} says as it arrives (a session's, per its hello). */
    public synchronized void admitWhen(IntSupplier limit) {
        this.admission = limit;
    }

    @Override
    public void inboundWireSize(long bytes) {
        Runnable action;
        synchronized (this) {
            if (done) {
                return;
            }
            message += bytes;
            int limit = admission != null ? admission.getAsInt() : allowance;
            if (message > limit) {
                done = true;
                action = () -> cut(limit);
            } else {
                action = take(bytes) ? null : this::overBudget;
            }
        }
        if (action != null) {
            action.run();
        }
    }

    @Override
    public synchronized void inboundMessageRead(int seqNo, long optionalWireSize, long optionalUncompressedSize) {
        if (releaseOnDelivery && !done) {
            undelivered.addLast(message);
        }
        message = 0;
    }

    /** The service took the oldest whole message: a streaming call gives its bytes back (a unary call holds them). */
    synchronized void delivered() {
        Long bytes = undelivered.pollFirst();
        if (bytes != null) {
            give(bytes);
        }
    }

    @Override
    public void outboundWireSize(long bytes) {
        boolean refused;
        synchronized (this) {
            refused = chargeAnswers && !done && !take(bytes);
        }
        if (refused) {
            overBudget();
        }
    }

    /**
     * The answer stream is not ready, so gRPC holds at least its ready threshold: hold {@code bytes}
     * (the threshold and the last batch) until the stream's on-ready handler calls {@link #ready()};
     * once held, further calls change nothing. Given back at once if {@code isReady} says the stream
     * turned ready meanwhile (its handler may have run before the hold).
     */
    public void holdWhileNotReady(long bytes, BooleanSupplier isReady) {
        boolean refused;
        synchronized (this) {
            if (done || notReady > 0) {
                return;
            }
            refused = !take(bytes);
            if (!refused) {
                notReady = bytes;
            }
        }
        if (refused) {
            overBudget();
        } else if (isReady.getAsBoolean()) {
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
        undelivered.clear();
    }

    /** Why the stream ended when it was an error other than a cancel (a message above the limit), else null. */
    public Throwable closedWithError() {
        Status status = closed;
        return status == null || status.isOk() || status.getCode() == Status.Code.CANCELLED ? null : status.asException();
    }

    /** Guarded by this. */
    private boolean take(long bytes) {
        if (connection == null) {
            return true; // not one of the server's connections: nothing to charge (cannot happen on a listener)
        }
        if (!connection.account().take(bytes)) {
            done = true;
            return false;
        }
        held += bytes;
        return true;
    }

    /** Guarded by this. */
    private void give(long bytes) {
        long back = Math.min(bytes, held);
        if (back > 0 && connection != null) {
            connection.account().give(back);
        }
        held -= back;
    }

    /** The budget refused: it logged the connection, which is closed. */
    private void overBudget() {
        GrpcConnection c;
        synchronized (this) {
            c = connection;
        }
        if (c != null) {
            c.close();
        }
    }

    /** A message of a call not admitted passed its allowance: the call ends, the connection serves on. */
    private void cut(int limit) {
        SerializedCall<?, ?> target;
        GrpcConnection c;
        synchronized (this) {
            target = call;
            c = connection;
            give(held);
        }
        String why = "a message of a call without admitted credentials may be at most " + limit + " bytes; present"
                + " a valid token (authorization: Bearer <token>) or say hello first";
        LOG.log("unadmitted", "cutting the call {} of {}: {}", method, c, why);
        if (target != null) {
            target.closeAtOnce(Status.RESOURCE_EXHAUSTED.withDescription(why));
        } else if (c != null) {
            c.close();
        }
    }
}
