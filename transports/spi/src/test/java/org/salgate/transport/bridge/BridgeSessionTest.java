package org.salgate.transport.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamEnded;

class BridgeSessionTest {

    /** Accepts hellos with credentials "ok", answers ListSensors with an empty list and pushes a frame on Echo. */
    private static final class ScriptedAgent implements ServerHandler {
        final List<String> log = new CopyOnWriteArrayList<>();

        @Override
        public void sessionOpened(Session session) {
            log.add("opened");
        }

        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Hello hello) {
                if (hello.credentials().equals("ok")) {
                    session.send(HelloReply.accept("agent"));
                } else {
                    session.send(HelloReply.refuse("agent", "no"));
                    session.close();
                }
            } else if (message instanceof Request request && request.call() instanceof Call.ListSensors) {
                session.send(new Response(request.id(), new Result.Sensors(List.of())));
            } else if (message instanceof Request request) {
                session.send(new StreamEnded(7, "pushed"));
                session.send(Response.failure(request.id(), ErrorCode.INVALID_ARGUMENT, "bad"));
            }
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
            log.add("closed");
        }
    }

    private static final class RecordingSink implements BridgeSession.Sink {
        final List<Message> pushed = new CopyOnWriteArrayList<>();
        /** How many messages had been pushed at each {@code delivered} call. */
        final List<Integer> deliveredAt = new CopyOnWriteArrayList<>();
        final CompletableFuture<Boolean> closedByAgent = new CompletableFuture<>();

        @Override
        public void pushed(Message message) {
            pushed.add(message);
        }

        @Override
        public void delivered() {
            deliveredAt.add(pushed.size());
        }

        @Override
        public void closed(boolean byAgent) {
            closedByAgent.complete(byAgent);
        }
    }

    @Test
    void callsAreAnsweredAndPushedFramesReachTheSink() throws Exception {
        ScriptedAgent agent = new ScriptedAgent();
        RecordingSink sink = new RecordingSink();
        BridgeSession session = BridgeSession.open(agent, 1, "test", () -> true, sink);

        assertTrue(session.hello("t", "protobuf", "ok").get(1, TimeUnit.SECONDS).accepted());
        assertInstanceOf(Result.Sensors.class, session.call(new Call.ListSensors(false)).get(1, TimeUnit.SECONDS));
        Result failure = session.call(new Call.ListProtocols()).get(1, TimeUnit.SECONDS);

        assertEquals(ErrorCode.INVALID_ARGUMENT, ((Result.Failure) failure).code());
        assertEquals(1, sink.pushed.size());
        assertInstanceOf(StreamEnded.class, sink.pushed.get(0));
    }

    @Test
    void aRefusedHelloClosesTheSessionAndFailsLaterCalls() throws Exception {
        ScriptedAgent agent = new ScriptedAgent();
        RecordingSink sink = new RecordingSink();
        BridgeSession session = BridgeSession.open(agent, 2, "test", () -> true, sink);

        HelloReply reply = session.hello("t", "protobuf", "wrong").get(1, TimeUnit.SECONDS);

        assertFalse(reply.accepted());
        assertFalse(session.isOpen());
        assertTrue(sink.closedByAgent.get(1, TimeUnit.SECONDS));
        assertEquals(List.of("opened", "closed"), agent.log);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> session.call(new Call.ListSensors(false)).get(1, TimeUnit.SECONDS));
        assertInstanceOf(BridgeSession.SessionClosedException.class, e.getCause());
    }

    @Test
    void closingByTheCallerEndsTheAgentSessionOnce() throws Exception {
        ScriptedAgent agent = new ScriptedAgent();
        RecordingSink sink = new RecordingSink();
        BridgeSession session = BridgeSession.open(agent, 3, "test", () -> false, sink);
        session.hello("t", "protobuf", "ok").get(1, TimeUnit.SECONDS);

        session.closeByCaller();
        session.closeByCaller();

        assertFalse(sink.closedByAgent.get(1, TimeUnit.SECONDS));
        assertEquals(List.of("opened", "closed"), agent.log);
        assertFalse(session.isWritable());
    }

    @Test
    void pushedMessagesWaitInTheBoundWhileTheCallerCannotTakeThemAndLeaveInOrder() throws Exception {
        ScriptedAgent agent = new ScriptedAgent();
        RecordingSink sink = new RecordingSink();
        java.util.concurrent.atomic.AtomicBoolean callerWritable = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger writableRuns = new java.util.concurrent.atomic.AtomicInteger();
        BridgeSession session = BridgeSession.open(agent, 4, "test", callerWritable::get, sink,
                org.salgate.transport.ServerOptions.builder().writeWaterMarks(1024, 4096).build());
        session.setWritabilityListener(writableRuns::incrementAndGet);

        int sent = 0;
        while (session.isWritable()) {
            session.send(new StreamEnded(sent++, "frame"));
        }
        assertTrue(sent >= 4096 / 128 && sent <= 4096 / 128 + 1, sent + " messages before the bound");
        assertTrue(sink.pushed.isEmpty(), "nothing reaches a caller that cannot take it");

        callerWritable.set(true);
        session.writableAgain();
        assertEquals(sent, sink.pushed.size());
        for (int i = 0; i < sent; i++) {
            assertEquals(i, ((StreamEnded) sink.pushed.get(i)).streamId());
        }
        assertTrue(session.isWritable());
        assertEquals(1, writableRuns.get());
    }

    @Test
    void messagesThatWaitedReachTheSinkAsOneBatchFollowedByOneDeliveredCall() throws Exception {
        ScriptedAgent agent = new ScriptedAgent();
        RecordingSink sink = new RecordingSink();
        java.util.concurrent.atomic.AtomicBoolean callerWritable = new java.util.concurrent.atomic.AtomicBoolean();
        BridgeSession session = BridgeSession.open(agent, 5, "test", callerWritable::get, sink,
                org.salgate.transport.ServerOptions.builder().writeWaterMarks(1024, 4096).build());

        for (int i = 0; i < 3; i++) {
            session.send(new StreamEnded(i, "frame"));
        }
        assertEquals(List.of(), sink.deliveredAt, "nothing delivered while the caller cannot take it");

        callerWritable.set(true);
        session.writableAgain();
        assertEquals(3, sink.pushed.size());
        assertEquals(List.of(3), sink.deliveredAt, "one delivered call, after the batch's last message");

        session.send(new StreamEnded(3, "frame"));
        assertEquals(List.of(3, 4), sink.deliveredAt, "a message sent while writable is a batch of its own");
    }
}
