package org.salgate.transport.grpc;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.salgate.transport.RateLimitedLog;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.grpc.proto.SalGrpc;
import org.salgate.transport.MemoryBudget;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * What one call (one HTTP/2 stream) holds, charged to its connection's account in the server's
 * memory budget as gRPC reports it ({@link ServerStreamTracer} callbacks, on the connection's event
 * loop):
 * <ul>
 *   <li>inbound message bytes as the deframer reads them, the unfinished message included, until
 *       the message is delivered to the service (a streaming call) or the call ends (a call that
 *       sends one message, which lives as long as the call);</li>
 *   <li>the answer of a call that answers once, from when gRPC frames it until the call ends;</li>
 *   <li>what gRPC holds for a streaming answer whose stream is not ready (see {@link #holdWhileNotReady}).</li>
 * </ul>
 * A take the budget refuses closes the connection ({@link GrpcConnection#close}). Until the call is
 * admitted, each of its messages may be at most a small allowance: a larger one cuts the call with
 * RESOURCE_EXHAUSTED, so a peer without credentials cannot make the agent hold large messages. A
 * typed call is admitted by its bearer token ({@link ServerHandler#admits}); a session stream, once
 * the agent accepts its hello ({@link #admitWhen}).
 */
final class CallBudget extends ServerStreamTracer {

    private static final Context.Key<CallBudget> KEY = Context.key("salgate-call-budget");
    private static final RateLimitedLog LOG = new RateLimitedLog(LoggerFactory.getLogger(CallBudget.class),
            Level.WARN);

    /** Makes each stream's budget; a call of the typed service is admitted by its token as the stream opens. */
    static final class Factory extends ServerStreamTracer.Factory {
        private final ServerHandler handler;
        private final int maxMessageBytes;

        Factory(ServerHandler handler, int maxMessageBytes) {
            this.handler = handler;
            this.maxMessageBytes = maxMessageBytes;
        }

        @Override
        public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
            boolean typed = fullMethodName.startsWith(SalGrpc.SERVICE_NAME + "/");
            boolean admitted = typed && handler.admits(CallContext.bearerToken(headers.get(CallContext.AUTHORIZATION)));
            return new CallBudget(fullMethodName, admitted ? maxMessageBytes
                    : Math.min(maxMessageBytes, GrpcTransportProvider.UNADMITTED_MESSAGE_BYTES));
        }
    }

    private final String method;
    /** Guarded by this. */
    private int allowance;
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

    private CallBudget(String method, int allowance) {
        this.method = method;
        this.allowance = allowance;
    }

    /** The budget of the current call, or null outside a call of this server. */
    static CallBudget current() {
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

    /**
     * From now on each message may be as large as {@code limit} says, asked as each arrives: the
     * limit the agent holds a session to (small until it accepts the hello, then the frame limit).
     */
    synchronized void admitWhen(IntSupplier limit) {
        this.admission = limit;
    }

    /** Whether messages are charged until delivered (a streaming call), not until the call ends. */
    synchronized boolean releasesOnDelivery() {
        return releaseOnDelivery;
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

    /** The service took the oldest whole message: a streaming call gives its bytes back. */
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
     * The answer stream is not ready: gRPC holds at least its ready threshold for it, so hold
     * {@code bytes} (the threshold and the last batch handed, at most what it holds) until
     * {@link #ready()}, which the stream's on-ready handler calls. Once held, further calls change
     * nothing. If {@code isReady} says the stream turned ready meanwhile, its handler may have run
     * before the hold: it is given back at once.
     */
    void holdWhileNotReady(long bytes, BooleanSupplier isReady) {
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
    synchronized void ready() {
        give(notReady);
        notReady = 0;
    }

    @Override
    public synchronized void streamClosed(Status status) {
        done = true;
        give(held);
        undelivered.clear();
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
