package org.salgate.transport.grpc.service;

import com.google.protobuf.MessageLite;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.transport.grpc.proto.SalGrpc;
import org.salgate.model.Call;
import org.salgate.wire.EventNotice;
import org.salgate.transport.MemoryBudget;
import org.salgate.wire.Message;
import org.salgate.wire.ProtobufCodec;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.salgate.wire.proto.WireProto;

/**
 * {@code Sal}: the SAL API as typed calls. Each call opens a {@link BridgeSession} on the agent's
 * handler, greets it with the call's bearer token as credentials, makes its one call (or sets up and
 * starts its one stream, or subscribes to events) and closes it when the call ends. Failures become
 * gRPC statuses with the agent's own message ({@link Statuses}).
 */
public final class SalService extends SalGrpc.SalImplBase {

    private static final String CLIENT_NAME = "grpc ";

    private final ServerHandler handler;
    private final String codecName;
    private final ServerOptions bound;
    private final MemoryBudget budget;
    private final AtomicLong ids;
    private final Set<BridgeSession> open;
    private final int readyThreshold;

    /**
     * @param bound the server's options: its codec, and its bound on what waits for each call
     * @param budget the server's memory budget, which what waits for each streaming call draws on
     * @param ids where each call's bridge session takes its id
     * @param open the open calls' bridge sessions, which the server closes if it stops first
     * @param readyThreshold what gRPC may buffer of a streaming answer before the stream says it is not ready
     */
    public SalService(ServerHandler handler, ServerOptions bound, MemoryBudget budget, AtomicLong ids,
                      Set<BridgeSession> open, int readyThreshold) {
        this.handler = handler;
        this.codecName = bound.codec().name();
        this.bound = bound;
        this.budget = budget;
        this.ids = ids;
        this.open = open;
        this.readyThreshold = readyThreshold;
    }

    // ------------------------------------------------------------------ unary calls

    @Override
    public void listSensors(WireProto.ListSensors request, StreamObserver<WireProto.SensorList> answer) {
        unary("ListSensors", WireProto.Request.newBuilder().setListSensors(request), answer,
                r -> r.getSensors());
    }

    @Override
    public void describeSensor(WireProto.SensorRef request, StreamObserver<WireProto.Text> answer) {
        unary("DescribeSensor", WireProto.Request.newBuilder().setDescribeSensor(request), answer,
                r -> r.getDocument());
    }

    @Override
    public void listCommands(WireProto.SensorRef request, StreamObserver<WireProto.Text> answer) {
        unary("ListCommands", WireProto.Request.newBuilder().setListCommands(request), answer,
                r -> r.getDocument());
    }

    @Override
    public void execute(WireProto.Execute request, StreamObserver<WireProto.Reading> answer) {
        unary("Execute", WireProto.Request.newBuilder().setExecute(request), answer, r -> r.getReading());
    }

    @Override
    public void addSensor(WireProto.Text request, StreamObserver<WireProto.SensorInfo> answer) {
        unary("AddSensor", WireProto.Request.newBuilder().setAddSensor(request), answer, r -> r.getSensor());
    }

    @Override
    public void removeSensor(WireProto.SensorRef request, StreamObserver<WireProto.Empty> answer) {
        unary("RemoveSensor", WireProto.Request.newBuilder().setRemoveSensor(request), answer, r -> r.getAck());
    }

    @Override
    public void listProtocols(WireProto.Empty request, StreamObserver<WireProto.ProtocolList> answer) {
        unary("ListProtocols", WireProto.Request.newBuilder().setListProtocols(request), answer,
                r -> r.getProtocols());
    }

    @Override
    public void addProtocol(WireProto.Text request, StreamObserver<WireProto.ProtocolList> answer) {
        unary("AddProtocol", WireProto.Request.newBuilder().setAddProtocol(request), answer,
                r -> r.getProtocols());
    }

    @Override
    public void removeProtocol(WireProto.Text request, StreamObserver<WireProto.Empty> answer) {
        unary("RemoveProtocol", WireProto.Request.newBuilder().setRemoveProtocol(request), answer,
                r -> r.getAck());
    }

    @Override
    public void getPlatformConfig(WireProto.Empty request, StreamObserver<WireProto.Text> answer) {
        unary("GetPlatformConfig", WireProto.Request.newBuilder().setGetPlatformConfig(request), answer,
                r -> r.getDocument());
    }

    /** One call on its own bridge session; the answer is the field {@code pick} takes from the response. */
    private <T> void unary(String method, WireProto.Request.Builder request, StreamObserver<T> answer,
                           Function<WireProto.Response, T> pick) {
        Call call;
        try {
            call = ProtobufCodec.call(request.setId(1).build());
        } catch (RuntimeException e) {
            answer.onError(Status.INVALID_ARGUMENT.withDescription(method + ": " + e.getMessage()).asRuntimeException());
            return;
        }
        BridgeSession session = open(method, () -> true, new IgnoringSink(), null);
        greet(session)
                .thenCompose(ok -> session.call(call))
                .whenComplete((result, error) -> {
                    session.closeByCaller();
                    open.remove(session);
                    if (error != null) {
                        answer.onError(statusOf(error));
                    } else if (result instanceof Result.Failure failure) {
                        answer.onError(Statuses.of(failure));
                    } else {
                        answer.onNext(pick.apply(ProtobufCodec.toProto(new Response(1, result)).getResponse()));
                        answer.onCompleted();
                    }
                });
    }

    // ------------------------------------------------------------------ server streaming

    @Override
    public void streamSensor(WireProto.SetupStream request, StreamObserver<WireProto.Reading> readings) {
        ServerCallStreamObserver<WireProto.Reading> out = (ServerCallStreamObserver<WireProto.Reading>) readings;
        Call setup;
        try {
            setup = ProtobufCodec.call(WireProto.Request.newBuilder().setId(1).setSetupStream(request).build());
        } catch (RuntimeException e) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("StreamSensor: " + e.getMessage()).asRuntimeException());
            return;
        }
        PushSink<WireProto.Reading> sink = new PushSink<>(out, message -> message instanceof StreamData data
                ? ProtobufCodec.toProto(data).getStreamData().getReading() : null, readyThreshold);
        BridgeSession session = pushing("StreamSensor", out, sink);
        greet(session)
                .thenCompose(ok -> session.call(setup))
                .thenCompose(handle -> handle instanceof Result.StreamHandle h
                        ? session.call(new Call.StartStream(h.streamId())) : CompletableFuture.completedFuture(handle))
                .whenComplete((result, error) -> failUnlessStarted(sink, result, error));
    }

    @Override
    public void watchEvents(WireProto.Empty request, StreamObserver<WireProto.Event> events) {
        ServerCallStreamObserver<WireProto.Event> out = (ServerCallStreamObserver<WireProto.Event>) events;
        PushSink<WireProto.Event> sink = new PushSink<>(out, message -> message instanceof EventNotice notice
                ? ProtobufCodec.toProto(notice).getEvent() : null, readyThreshold);
        BridgeSession session = pushing("WatchEvents", out, sink);
        greet(session)
                .thenCompose(ok -> session.call(new Call.SubscribeEvents()))
                .whenComplete((result, error) -> failUnlessStarted(sink, result, error));
    }

    /**
     * A bridge session whose pushes go to {@code out}, paced by gRPC flow control and ended by a
     * cancel. What waits for the caller draws on an account of the call's own in the server's memory
     * budget; what gRPC holds while the stream is not ready, on the connection's ({@link CallBudget}).
     */
    private <T extends MessageLite> BridgeSession pushing(String method,
            ServerCallStreamObserver<T> out, PushSink<T> sink) {
        out.setOnReadyThreshold(readyThreshold);
        CallBudget callBudget = CallBudget.current();
        String caller = CallContext.remoteAddress() + " (its " + method + " call)";
        MemoryBudget.Account account = budget.open(caller, () -> sink.finish(Status.RESOURCE_EXHAUSTED
                .withDescription("the agent's connections together reached its memory budget of " + budget.maxBytes()
                        + " bytes and this call held the most; read its messages as they come").asRuntimeException()));
        BridgeSession session = open(method, out::isReady, sink, account);
        sink.of(session);
        Runnable close = () -> {
            session.closeByCaller();
            open.remove(session);
        };
        // An end the agent pushed (StreamEnded) arrives on the agent's thread: the session closes after it.
        sink.whenFinished(() -> CompletableFuture.runAsync(close));
        out.setOnReadyHandler(() -> {
            if (callBudget != null) {
                callBudget.ready();
            }
            session.writableAgain();
        });
        out.setOnCancelHandler(() -> {
            sink.finish(null);
            close.run();
        });
        return session;
    }

    private static void failUnlessStarted(PushSink<?> sink, Result result, Throwable error) {
        if (error != null) {
            sink.finish(statusOf(error));
        } else if (result instanceof Result.Failure failure) {
            sink.finish(Statuses.of(failure));
        }
    }

    // ------------------------------------------------------------------ the bridge

    private BridgeSession open(String method, BooleanSupplier writable, BridgeSession.Sink sink,
                               MemoryBudget.Account account) {
        BridgeSession session = BridgeSession.open(handler, ids.incrementAndGet(), CallContext.remoteAddress(),
                writable, sink, bound, account);
        open.add(session);
        return session;
    }

    /**
     * The hello with the call's credentials; fails, in the agent's words, if refused: UNAUTHENTICATED
     * for credentials, RESOURCE_EXHAUSTED when the agent serves its maximum of sessions.
     */
    private CompletableFuture<Void> greet(BridgeSession session) {
        return session.hello(CLIENT_NAME + CallContext.remoteAddress(), codecName, CallContext.credentials())
                .thenApply(reply -> {
                    if (!reply.accepted()) {
                        throw new CompletionException(
                                Statuses.code(reply.code()).withDescription(reply.error()).asRuntimeException());
                    }
                    return null;
                });
    }

    private static Throwable statusOf(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof io.grpc.StatusRuntimeException) {
            return cause;
        }
        if (cause instanceof BridgeSession.SessionClosedException) {
            return Status.UNAVAILABLE.withDescription("the agent closed the session: " + cause.getMessage())
                    .asRuntimeException();
        }
        return Status.INTERNAL.withDescription(cause.toString()).asRuntimeException();
    }

    /** A unary call's session pushes nothing the caller asked for. */
    private static final class IgnoringSink implements BridgeSession.Sink {
        @Override
        public void pushed(Message message) {
        }

        @Override
        public void closed(boolean byAgent) {
        }
    }

    /**
     * Sends the pushed messages {@code convert} maps (others are dropped: a typed stream carries one
     * kind) and ends the call when the stream ends or the agent closes the session.
     */
    private static final class PushSink<T extends MessageLite> implements BridgeSession.Sink {
        private final ServerCallStreamObserver<T> out;
        private final Function<Message, T> convert;
        private final AtomicBoolean done = new AtomicBoolean();
        private volatile Runnable whenFinished = () -> { };
        /** What gRPC holds while the stream is not ready is charged here; null outside a server call. */
        private final CallBudget callBudget;
        private final int readyThreshold;
        private volatile BridgeSession session;
        /** Guarded by this: bytes handed to gRPC in the batch being delivered. */
        private long batchBytes;

        PushSink(ServerCallStreamObserver<T> out, Function<Message, T> convert, int readyThreshold) {
            this.out = out;
            this.convert = convert;
            this.callBudget = CallBudget.current();
            this.readyThreshold = readyThreshold;
        }

        /** The session whose pushes this sink sends, asked why it closed. */
        void of(BridgeSession session) {
            this.session = session;
        }

        @Override
        public void pushed(Message message) {
            if (message instanceof StreamEnded) {
                finish(null);
                return;
            }
            T item = convert.apply(message);
            if (item != null) {
                synchronized (this) {
                    if (!done.get()) {
                        batchBytes += item.getSerializedSize();
                        out.onNext(item);
                    }
                }
            }
        }

        @Override
        public void delivered() {
            long batch;
            synchronized (this) {
                batch = batchBytes;
                batchBytes = 0;
            }
            if (callBudget != null && batch > 0 && !out.isReady()) {
                callBudget.holdWhileNotReady(readyThreshold + batch, out::isReady);
            }
        }

        @Override
        public void closed(boolean byAgent) {
            BridgeSession s = session;
            if (s != null && s.closedOverLimit()) {
                finish(Status.RESOURCE_EXHAUSTED.withDescription("the caller did not read what the agent sent: more "
                        + "than the agent holds for one call waited, or all of them together reached its memory "
                        + "budget; read the messages as they come").asRuntimeException());
            } else if (byAgent) {
                finish(Status.UNAVAILABLE.withDescription("the agent closed the session (it may be stopping)")
                        .asRuntimeException());
            }
        }

        void whenFinished(Runnable action) {
            this.whenFinished = action;
        }

        /** Ends the call: OK when {@code error} is null. Once; a cancelled call is not answered. */
        void finish(Throwable error) {
            synchronized (this) {
                if (!done.compareAndSet(false, true)) {
                    return;
                }
                if (!out.isCancelled()) {
                    if (error == null) {
                        out.onCompleted();
                    } else {
                        out.onError(error);
                    }
                }
            }
            whenFinished.run();
        }
    }
}
