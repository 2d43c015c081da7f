package org.salgate.transport.grpc.service;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.MessageLite;
import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;
import io.grpc.stub.ServerCalls;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
public final class SalService implements BindableService {

    private static final String CLIENT_NAME = "grpc ";
    private static final OneofDescriptor RESULT = WireProto.Response.getDescriptor().getOneofs().get(0);

    private final ServerHandler handler;
    private final ServerOptions bound;
    private final MemoryBudget budget;
    private final AtomicLong ids;
    private final Set<BridgeSession> open;

    /**
     * @param bound the server's options: its codec, and its bound on what waits for each call
     * @param budget the server's memory budget, which what waits for each streaming call draws on
     * @param ids where each call's bridge session takes its id
     * @param open the open calls' bridge sessions, which the server closes if it stops first
     */
    public SalService(ServerHandler handler, ServerOptions bound, MemoryBudget budget, AtomicLong ids,
                      Set<BridgeSession> open) {
        this.handler = handler;
        this.bound = bound;
        this.budget = budget;
        this.ids = ids;
        this.open = open;
    }

    /**
     * The service as the one {@code .proto} declares it: each unary rpc sends its request as the
     * field of the wire's {@code Request} of the same name ({@code ListSensors}: {@code list_sensors})
     * and answers with the response's result; the two streaming rpcs are served below.
     *
     * @throws IllegalStateException when a unary rpc has no such field
     */
    @Override
    public ServerServiceDefinition bindService() {
        ServerServiceDefinition.Builder service = ServerServiceDefinition.builder(SalGrpc.getServiceDescriptor())
                .addMethod(SalGrpc.getStreamSensorMethod(), ServerCalls.asyncServerStreamingCall(this::streamSensor))
                .addMethod(SalGrpc.getWatchEventsMethod(), ServerCalls.asyncServerStreamingCall(this::watchEvents));
        for (MethodDescriptor<?, ?> method : SalGrpc.getServiceDescriptor().getMethods()) {
            if (method.getType() == MethodDescriptor.MethodType.UNARY) {
                service.addMethod(unary(method));
            }
        }
        return service.build();
    }

    private <Q, R> ServerMethodDefinition<Q, R> unary(MethodDescriptor<Q, R> method) {
        String name = method.getBareMethodName();
        FieldDescriptor field = WireProto.Request.getDescriptor().findFieldByName(
                name.replaceAll("(?<=[a-z])(?=[A-Z])", "_").toLowerCase(Locale.ROOT));
        if (field == null) {
            throw new IllegalStateException("the rpc " + name + " has no field of its name in the wire's Request");
        }
        Descriptor output = ((ProtoMethodDescriptorSupplier) method.getSchemaDescriptor()).getMethodDescriptor()
                .getOutputType();
        return ServerMethodDefinition.create(method, ServerCalls.asyncUnaryCall((request, answer) ->
                unary(name, WireProto.Request.newBuilder().setField(field, request), output, answer)));
    }

    /** One call on its own bridge session; the answer is the result the response carries, of type {@code output}. */
    @SuppressWarnings("unchecked")
    private <R> void unary(String method, WireProto.Request.Builder request, Descriptor output,
                           StreamObserver<R> answer) {
        Call call = parse(method, request, answer);
        if (call == null) {
            return;
        }
        BridgeSession session = open(() -> true, NO_PUSHES, null);
        greet(session).thenCompose(ok -> session.call(call)).whenComplete((result, error) -> {
            close(session);
            if (error != null || result instanceof Result.Failure) {
                answer.onError(statusOf(error, result));
            } else {
                WireProto.Response response = ProtobufCodec.toProto(new Response(1, result)).getResponse();
                Object value = response.getField(response.getOneofFieldDescriptor(RESULT));
                if (value instanceof com.google.protobuf.Message m && m.getDescriptorForType() == output) {
                    answer.onNext((R) value);
                    answer.onCompleted();
                } else {
                    answer.onError(Status.INTERNAL.withDescription(method + ": the agent answered with a "
                            + result.getClass().getSimpleName() + ", not a " + output.getName()).asRuntimeException());
                }
            }
        });
    }

    /** The call a request makes; null when it is malformed, which ends the call with INVALID_ARGUMENT. */
    private static Call parse(String method, WireProto.Request.Builder request, StreamObserver<?> answer) {
        try {
            return ProtobufCodec.call(request.setId(1).build());
        } catch (RuntimeException e) {
            answer.onError(Status.INVALID_ARGUMENT.withDescription(method + ": " + e.getMessage())
                    .asRuntimeException());
            return null;
        }
    }

    // ------------------------------------------------------------------ server streaming

    private void streamSensor(WireProto.SetupStream request, StreamObserver<WireProto.Reading> readings) {
        Call setup = parse("StreamSensor", WireProto.Request.newBuilder().setSetupStream(request), readings);
        if (setup != null) {
            push("StreamSensor", readings, m -> m instanceof StreamData data
                    ? ProtobufCodec.toProto(data).getStreamData().getReading() : null,
                    session -> session.call(setup).thenCompose(handle -> handle instanceof Result.StreamHandle h
                            ? session.call(new Call.StartStream(h.streamId()))
                            : CompletableFuture.completedFuture(handle)));
        }
    }

    private void watchEvents(WireProto.Empty request, StreamObserver<WireProto.Event> events) {
        push("WatchEvents", events,
                m -> m instanceof EventNotice notice ? ProtobufCodec.toProto(notice).getEvent() : null,
                session -> session.call(new Call.SubscribeEvents()));
    }

    /** A call that {@code start}s a bridge session's pushes, which go to the caller as {@code convert} maps them. */
    private <T extends MessageLite> void push(String method, StreamObserver<T> observer, Function<Message, T> convert,
                                              Function<BridgeSession, CompletableFuture<Result>> start) {
        Push<T> push = new Push<>(method, (ServerCallStreamObserver<T>) observer, convert);
        greet(push.session).thenCompose(ok -> start.apply(push.session)).whenComplete((result, error) -> {
            if (error != null || result instanceof Result.Failure) {
                push.finish(statusOf(error, result));
            }
        });
    }

    // ------------------------------------------------------------------ the bridge

    private BridgeSession open(BooleanSupplier writable, BridgeSession.Sink sink, MemoryBudget.Account account) {
        BridgeSession session = BridgeSession.open(handler, ids.incrementAndGet(), CallBudget.current().remoteAddress(),
                writable, sink, bound, account);
        open.add(session);
        return session;
    }

    private void close(BridgeSession session) {
        session.closeByCaller();
        open.remove(session);
    }

    /**
     * The hello with the call's credentials; fails, in the agent's words, if refused: UNAUTHENTICATED
     * for credentials, RESOURCE_EXHAUSTED when the agent serves its maximum of sessions.
     */
    private CompletableFuture<Void> greet(BridgeSession session) {
        CallBudget call = CallBudget.current();
        return session.hello(CLIENT_NAME + call.remoteAddress(), bound.codec().name(), call.credentials())
                .thenApply(reply -> {
                    if (!reply.accepted()) {
                        throw new CompletionException(
                                Statuses.code(reply.code()).withDescription(reply.error()).asRuntimeException());
                    }
                    return null;
                });
    }

    /** The status a call ends with: the agent's failure, or why it gave none. */
    private static Throwable statusOf(Throwable error, Result result) {
        if (error == null) {
            return Statuses.of((Result.Failure) result);
        }
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
    private static final BridgeSession.Sink NO_PUSHES = new BridgeSession.Sink() {
        @Override
        public void pushed(Message message) {
        }

        @Override
        public void closed(boolean byAgent) {
        }
    };

    /**
     * A streaming call's bridge session and what it pushes: the messages {@code convert} maps go to
     * the caller (others are dropped: a typed stream carries one kind), paced by gRPC flow control
     * (the session holds them while the stream is not ready), until the stream ends, the agent closes
     * the session or the caller cancels. What waits for the caller draws on an account of the call's
     * own in the server's memory budget; what gRPC holds of the stream, on the connection's
     * ({@link CallBudget}).
     */
    private final class Push<T extends MessageLite> implements BridgeSession.Sink {
        private final ServerCallStreamObserver<T> out;
        private final Function<Message, T> convert;
        /** Set once open: the session's own callbacks while it opens see null. */
        private volatile BridgeSession session;
        /** Guarded by this: the call has ended. */
        private boolean done;

        Push(String method, ServerCallStreamObserver<T> out, Function<Message, T> convert) {
            this.out = out;
            this.convert = convert;
            MemoryBudget.Account account = budget.open(CallBudget.current().remoteAddress() + " (its " + method + " call)",
                    () -> finish(Status.RESOURCE_EXHAUSTED.withDescription("the agent's connections together reached"
                            + " its memory budget of " + budget.maxBytes() + " bytes and this call held the most; read"
                            + " its messages as they come").asRuntimeException()));
            this.session = open(out::isReady, this, account);
            out.setOnReadyHandler(session::writableAgain);
            out.setOnCancelHandler(() -> {
                finish(null);
                close(session);
            });
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
                    if (!done) {
                        out.onNext(item);
                    }
                }
            }
        }

        @Override
        public void closed(boolean byAgent) {
            if (session != null && session.closedOverLimit()) {
                finish(Status.RESOURCE_EXHAUSTED.withDescription("the caller did not read what the agent sent: more "
                        + "than the agent holds for one call waited, or all of them together reached its memory "
                        + "budget; read the messages as they come").asRuntimeException());
            } else if (byAgent) {
                finish(Status.UNAVAILABLE.withDescription("the agent closed the session (it may be stopping)")
                        .asRuntimeException());
            }
        }

        /**
         * Ends the call, OK when {@code error} is null, and then the session; once. A cancelled call is
         * not answered (its session closes at once). The session closes on another thread: an end the
         * agent pushed arrives on the agent's own.
         */
        void finish(Throwable error) {
            synchronized (this) {
                if (done) {
                    return;
                }
                done = true;
                if (!out.isCancelled()) {
                    if (error == null) {
                        out.onCompleted();
                    } else {
                        out.onError(error);
                    }
                }
            }
            if (session != null) {
                CompletableFuture.runAsync(() -> close(session));
            }
        }
    }
}
