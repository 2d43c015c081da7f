package org.salgate.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.Session;
import org.salgate.model.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.model.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;
import org.salgate.model.Value;

@Timeout(30)
class EchoStreamHandlerTest {

    /** A session that takes {@code capacity} stream frames, then is not writable until drained. */
    static final class FakeSession implements Session {
        final List<Message> sent = new CopyOnWriteArrayList<>();
        final AtomicInteger queued = new AtomicInteger();
        volatile int capacity = Integer.MAX_VALUE;
        volatile Runnable listener;

        @Override public long id() { return 1; }
        @Override public String remoteAddress() { return "test"; }
        @Override public void send(Message m) {
            sent.add(m);
            if (m instanceof StreamData) {
                queued.incrementAndGet();
            }
        }
        @Override public boolean isWritable() { return queued.get() < capacity; }
        @Override public void setWritabilityListener(Runnable l) { listener = l; }
        @Override public boolean isOpen() { return true; }
        @Override public void close() { }

        void drain() {
            queued.set(0);
            listener.run();
        }

        long frames() {
            return sent.stream().filter(m -> m instanceof StreamData).count();
        }

        Result answer(long id) {
            return sent.stream().filter(m -> m instanceof Response r && r.id() == id).map(m -> ((Response) m).result())
                    .findFirst().orElseThrow();
        }
    }

    private final ExecutorService pushers = Executors.newFixedThreadPool(2);
    private final EchoStreamHandler handler = new EchoStreamHandler("test", pushers);
    private final FakeSession session = new FakeSession();

    @AfterEach
    void stop() throws InterruptedException {
        pushers.shutdownNow();
        pushers.awaitTermination(5, TimeUnit.SECONDS);
    }

    private static void await(java.util.function.BooleanSupplier c) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!c.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "condition not reached in time");
            Thread.sleep(5);
        }
    }

    @Test
    void helloAndEchoesAreAnswered() {
        handler.sessionOpened(session);
        handler.messageReceived(session, Hello.of("protobuf", "t"));
        handler.messageReceived(session, new Request(1, new Call.Echo(new Value.Int(4))));
        Reading r = Reading.ok("s", 1, 2, new Value.Num(3));
        handler.messageReceived(session, new Request(2, new Call.EchoReading(r)));
        assertInstanceOf(HelloReply.class, session.sent.get(0));
        assertEquals(new Result.Echoed(new Value.Int(4)), session.answer(1));
        assertEquals(new Result.ReadingResult(r), session.answer(2));
    }

    @Test
    void badStreamSizeIsRefusedWithAClearError() {
        handler.sessionOpened(session);
        handler.messageReceived(session, new Request(1, new Call.SetupStream("bench", "payload",
                java.util.Map.of("size", "lots"), 0)));
        Result r = session.answer(1);
        assertInstanceOf(Result.Failure.class, r);
        assertTrue(((Result.Failure) r).message().contains("size"));
    }

    @Test
    void streamStopsWhenNotWritableAndResumesWhenDrained() throws Exception {
        session.capacity = 5;
        handler.sessionOpened(session);
        handler.messageReceived(session, new Request(1, BenchProtocol.setupStream(1024)));
        long id = ((Result.StreamHandle) session.answer(1)).streamId();
        handler.messageReceived(session, new Request(2, new Call.StartStream(id)));
        await(() -> session.frames() == 5);
        Thread.sleep(100); // nothing more may come while the session is full
        assertEquals(5, session.frames());
        session.drain();
        await(() -> session.frames() == 10);
    }

    @Test
    void noFrameFollowsTheStopAnswerAndSequencesHaveNoGaps() throws Exception {
        handler.sessionOpened(session);
        handler.messageReceived(session, new Request(1, BenchProtocol.setupStream(16)));
        long id = ((Result.StreamHandle) session.answer(1)).streamId();
        handler.messageReceived(session, new Request(2, new Call.StartStream(id)));
        await(() -> session.frames() > 100);
        handler.messageReceived(session, new Request(3, new Call.StopStream(id)));
        int stopAt = -1;
        for (int i = 0; i < session.sent.size(); i++) {
            if (session.sent.get(i) instanceof Response r && r.id() == 3) {
                stopAt = i;
            }
        }
        Thread.sleep(50);
        assertTrue(stopAt > 0);
        assertEquals(stopAt + 1, session.sent.size(), "frames were sent after the stop was answered");
        long expected = 0;
        for (Message m : session.sent) {
            if (m instanceof StreamData d) {
                assertEquals(expected++, d.reading().sequence());
                assertEquals(16, ((Value.Bytes) d.reading().value()).value().length);
            }
        }
    }

    @Test
    void closedSessionEndsItsStreams() throws Exception {
        handler.sessionOpened(session);
        handler.messageReceived(session, new Request(1, BenchProtocol.setupStream(16)));
        long id = ((Result.StreamHandle) session.answer(1)).streamId();
        handler.messageReceived(session, new Request(2, new Call.StartStream(id)));
        await(() -> session.frames() > 10);
        handler.sessionClosed(session, null);
        Thread.sleep(50);
        long after = session.frames();
        Thread.sleep(100);
        assertEquals(after, session.frames());
        assertFalse(session.sent.isEmpty());
    }
}
