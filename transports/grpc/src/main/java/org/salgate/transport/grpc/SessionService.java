package org.salgate.transport.grpc;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.grpc.proto.EncodedFrame;
import org.salgate.transport.grpc.proto.SalSessionGrpc;
import org.salgate.transport.MemoryBudget;

/** {@code SalSession}: each call is one {@link GrpcSession} on the agent's handler. */
final class SessionService extends SalSessionGrpc.SalSessionImplBase {

    private final ServerHandler handler;
    private final ServerOptions options;
    private final MemoryBudget budget;
    private final AtomicLong ids;
    private final Set<GrpcSession> open;

    SessionService(ServerHandler handler, ServerOptions options, MemoryBudget budget, AtomicLong ids,
                   Set<GrpcSession> open) {
        this.handler = handler;
        this.options = options;
        this.budget = budget;
        this.ids = ids;
        this.open = open;
    }

    @Override
    public StreamObserver<EncodedFrame> session(StreamObserver<EncodedFrame> responses) {
        GrpcSession[] self = new GrpcSession[1];
        GrpcSession session = new GrpcSession(ids.incrementAndGet(), handler, options, budget,
                (ServerCallStreamObserver<EncodedFrame>) responses, () -> open.remove(self[0]));
        self[0] = session;
        open.add(session);
        session.open();
        return session;
    }
}
