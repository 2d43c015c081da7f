package org.salgate.transport.grpc.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.salgate.model.ErrorCode;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.transport.grpc.proto.SalGrpc;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.proto.WireProto;

class SalServiceTest {

    /**
     * Refuses every hello and closes the session, as the agent does for credentials it does not know;
     * counts the sessions it saw end.
     */
    private static final class RefusingAgent implements ServerHandler {
        final AtomicInteger closed = new AtomicInteger();

        @Override
        public void sessionOpened(Session session) {
        }

        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Hello) {
                session.send(HelloReply.refuse("test-agent", ErrorCode.UNAUTHENTICATED, "no such token"));
                session.close();
            }
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
            closed.incrementAndGet();
        }
    }

    @Test
    void aTypedStreamWhoseHelloTheAgentRefusesLeavesNoOpenSessionBehind() throws Exception {
        RefusingAgent agent = new RefusingAgent();
        Set<BridgeSession> open = ConcurrentHashMap.newKeySet();
        MemoryBudget budget = new MemoryBudget(1 << 20);
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addStreamTracerFactory(CallBudget.factory(agent, 64 * 1024))
                .intercept(new Connections(budget))
                .addService(new SalService(agent, ServerOptions.builder().build(), budget, new AtomicLong(), open))
                .build().start();
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
        try {
            for (int i = 0; i < 3; i++) {
                Iterator<WireProto.Event> events = SalGrpc.newBlockingStub(channel)
                        .watchEvents(WireProto.Empty.getDefaultInstance());
                StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, events::hasNext);
                assertEquals(Status.Code.UNAUTHENTICATED, refused.getStatus().getCode());
                assertEquals("no such token", refused.getStatus().getDescription());
            }
            // the call's end is sent before its session leaves the open ones
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!open.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(open.isEmpty(), open.size() + " refused calls' sessions still among the open ones");
            assertEquals(3, agent.closed.get(), "the sessions the agent saw end");
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
