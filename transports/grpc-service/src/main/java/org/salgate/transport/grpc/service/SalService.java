package org.salgate.transport.grpc.service;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
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
     * and answers with the response's result; each streaming rpc sends its own field and answers with
     * what the agent then pushes of one kind: the stream's readings, or the events.
     *
     * @throws IllegalStateException when a unary rpc has no such field
     */
    @Override
    public ServerServiceDefinition bindService() {
        ServerServiceDefinition.Builder service = ServerServiceDefinition.builder(SalGrpc.getServiceDescriptor())
                .addMethod(SalGrpc.getStreamSensorMethod(), ServerCalls.asyncServerStreamingCall((request, out) ->
                        serve("StreamSensor", WireProto.Request.newBuilder().setSetupStream(request), out,
                                m -> m instanceof StreamData data ? ProtobufCodec.toProto(data).getStreamData().getReading()
                                        : null, (call, result) -> { })))
                .addMethod(SalGrpc.getWatchEventsMethod(), ServerCalls.asyncServerStreamingCall((request, out) ->
                        serve("WatchEvents", WireProto.Request.newBuilder().setSubscribeEvents(request), out,
                                m -> m instanceof EventNotice notice ? ProtobufCodec.toProto(notice).getEvent() : null,
                                (call, result) -> { })));
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
        return ServerMethodDefinition.create(method, ServerCalls.asyncUnaryCall((request, answer) -> serve(name,
                WireProto.Request.newBuilder().setField(field, request), answer, null,
                (call, result) -> call.answer(result, output))));
    }

    /**
     * One call on its own bridge session, once its request reads as a call (a malformed one ends the
     * call with INVALID_ARGUMENT): the pushed messages {@code convert} maps go to the caller (a unary
     * call, without {@code convert}, takes none); {@code answered} takes the call's result.
     */
    private <T> void serve(String method, WireProto.Request.Builder request, StreamObserver<T> out,
                           Function<Message, T> convert, BiConsumer<TypedCall<T>, Result> answered) {
        Call call;
        try {
            call = ProtobufCodec.call(request.setId(1).build());
        } catch (RuntimeException e) {
            out.onError(Status.INVALID_ARGUMENT.withDescription(method + ": " + e.getMessage()).asRuntimeException());
            return;
        }
        new TypedCall<>(method, out, convert).start(call, answered);
    }

    // ------------------------------------------------------------------ the bridge

    /**
     * A call's bridge session, and what it pushes: the messages {@code convert} maps go to the caller
     * (others are dropped: a typed stream carries one kind; a unary call, without {@code convert},
     * takes none), paced by gRPC flow control (the session holds them while the stream is not ready),
     * until the call ends, the agent closes the session or the caller cancels. What waits for the
     * caller of a stream draws on an account of the call's own in the server's memory budget; what
     * gRPC holds of the call, on the connection's ({@link CallBudget}).
     */
    private final class TypedCall<T> implements BridgeSession.Sink {
        private final String method;
        private final ServerCallStreamObserver<T> out;
        private final Function<Message, T> convert;
        /** Set once open: the session's own callbacks while it opens see null. */
        private volatile BridgeSession session;
        /** The agent accepted the hello: from then on, its closing the session ends the call. */
        private volatile boolean accepted;
        /** Guarded by this: the call has ended. */
        private boolean done;

        TypedCall(String method, StreamObserver<T> out, Function<Message, T> convert) {
            this.method = method;
            this.out = (ServerCallStreamObserver<T>) out;
            this.convert = convert;
            String remote = CallBudget.current().remoteAddress();
            MemoryBudget.Account account = convert == null ? null : budget.open(remote + " (its " + method + " call)",
                    () -> finish(Status.RESOURCE_EXHAUSTED.withDescription("the agent's connections together reached"
                            + " its memory budget of " + budget.maxBytes() + " bytes and this call held the most; read"
                            + " its messages as they come").asRuntimeException()));
            this.session = BridgeSession.open(handler, ids.incrementAndGet(), remote, this.out::isReady, this, bound,
                    account);
            open.add(session);
            this.out.setOnReadyHandler(session::writableAgain);
            this.out.setOnCancelHandler(() -> {
                finish(null);
                session.closeByCaller();
            });
        }

        /**
         * Says hello with the call's credentials and, once the agent accepts, makes {@code call} (and
         * starts the stream it sets up); {@code answered} takes the result. A refusal or a failure ends
         * the call with its status in the agent's words ({@link Statuses}): UNAUTHENTICATED for
         * credentials, RESOURCE_EXHAUSTED when the agent serves its maximum of sessions. A unary call's
         * session is closed before it is answered.
         */
        void start(Call call, BiConsumer<TypedCall<T>, Result> answered) {
            CallBudget caller = CallBudget.current();
            session.hello(CLIENT_NAME + caller.remoteAddress(), bound.codec().name(), caller.credentials())
                    .thenCompose(reply -> {
                        accepted = reply.accepted();
                        return accepted ? session.call(call)
                                : CompletableFuture.completedFuture(new Result.Failure(reply.code(), reply.error()));
                    })
                    .thenCompose(result -> result instanceof Result.StreamHandle h
                            ? session.call(new Call.StartStream(h.streamId())) : CompletableFuture.completedFuture(result))
                    .whenComplete((result, error) -> {
                        if (convert == null) {
                            session.closeByCaller();
                        }
                        if (error != null || result instanceof Result.Failure) {
                            finish(Statuses.of(error, result));
                        } else {
                            answered.accept(this, result);
                        }
                    });
        }

        @Override
        public void pushed(Message message) {
            if (message instanceof StreamEnded) {
                finish(null);
            } else if (convert != null) {
                send(convert.apply(message));
            }
        }

        synchronized void send(T item) {
            if (item != null && !done) {
                out.onNext(item);
            }
        }

        /** A unary call's answer: the result the response carries, of type {@code output}. */
        @SuppressWarnings("unchecked")
        void answer(Result result, Descriptor output) {
            WireProto.Response response = ProtobufCodec.toProto(new Response(1, result)).getResponse();
            Object value = response.getField(response.getOneofFieldDescriptor(RESULT));
            if (value instanceof com.google.protobuf.Message m && m.getDescriptorForType() == output) {
                send((T) value);
                finish(null);
            } else {
                finish(Status.INTERNAL.withDescription(method + ": the agent answered with a "
                        + result.getClass().getSimpleName() + ", not a " + output.getName()).asRuntimeException());
            }
        }

        /** The session ended; before the hello is accepted, the hello's outcome ends the call. */
        @Override
        public void closed(boolean byAgent) {
            if (!accepted) {
                return;
            }
            if (session.closedOverLimit()) {
                finish(Status.RESOURCE_EXHAUSTED.withDescription("the caller did not read what the agent sent: more "
                        + "than the agent holds for one call waited, or all of them together reached its memory "
                        + "budget; read the messages as they come").asRuntimeException());
            } else if (byAgent) {
                finish(Status.UNAVAILABLE.withDescription("the agent closed the session (it may be stopping)")
                        .asRuntimeException());
            }
        }

        /**
         * Ends the call, OK when {@code error} is null, then closes the session unless it is closed
         * and takes it from the open ones; once. A cancelled call is not answered (its session closes
         * at once). The session closes on another thread: an end the agent pushed arrives on the agent's own.
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
                open.remove(session);
                if (session.isOpen()) {
                    CompletableFuture.runAsync(session::closeByCaller);
                }
            }
        }
    }
}
