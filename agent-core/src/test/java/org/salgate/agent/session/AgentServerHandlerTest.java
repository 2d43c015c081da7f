package org.salgate.agent.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.salgate.agent.core.EventBus;
import org.salgate.agent.stream.StreamRegistry;
import org.salgate.transport.Session;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;

class AgentServerHandlerTest {

    private final ExecutorService workers = Executors.newSingleThreadExecutor();
    private final StreamRegistry streams = new StreamRegistry(1);

    @AfterEach
    void stop() {
        workers.shutdownNow();
        streams.close();
    }

    /** A session that keeps what it is sent; always writable. */
    private static final class Recorder implements Session {
        final List<Message> sent = new ArrayList<>();

        @Override public long id() { return 1; }
        @Override public String remoteAddress() { return "test"; }
        @Override public synchronized void send(Message m) { sent.add(m); }
        @Override public boolean isWritable() { return true; }
        @Override public void setWritabilityListener(Runnable l) { }
        @Override public boolean isOpen() { return true; }
        @Override public void close() { }
    }

    @Test
    void unexpectedExceptionIsAnsweredInternalAndTheSessionKeepsWorking() {
        // A dispatcher without a sensor manager throws NullPointerException on ListSensors.
        RequestDispatcher broken = new RequestDispatcher(null, null, streams, new EventBus(), 1);
        AgentServerHandler handler = new AgentServerHandler("a", "protobuf", broken, streams, new EventBus(), workers,
                null);
        Recorder s = new Recorder();
        handler.sessionOpened(s);
        handler.messageReceived(s, Hello.of("protobuf", "c"));
        handler.messageReceived(s, new Request(7, new Call.ListSensors(false)));
        Response failed = assertInstanceOf(Response.class, s.sent.get(1));
        assertEquals(7, failed.id());
        Result.Failure f = assertInstanceOf(Result.Failure.class, failed.result());
        assertEquals(ErrorCode.INTERNAL, f.code());
        assertTrue(f.message().contains("log"), f.message());

        handler.messageReceived(s, new Request(8, new Call.SubscribeEvents()));
        Response subscribed = assertInstanceOf(Response.class, s.sent.get(2));
        assertEquals(Result.ack(), subscribed.result());
        handler.sessionClosed(s, null);
        assertEquals(0, handler.sessionCount());
    }
}
