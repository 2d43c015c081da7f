package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.model.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.ProtobufCodec;
import org.salgate.model.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;
import org.salgate.model.Value;

/**
 * The suite of a transport whose client lets a waiting caller read its own answer
 * ({@link TransportClient#readWhileWaiting}): the caller does read it on its own thread, and nothing
 * is lost to it, whether it is a caller or the connection's own thread that reads. A transport whose
 * callers read over TLS too runs it again with {@link #tls()}.
 */
@Timeout(60)
public abstract class AbstractCallerReadTest {

    private final TransportProvider provider = provider();
    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong ids = new AtomicLong();
    private TransportServer server;
    private TransportClient client;
    private Answers answers;

    /** The transport under test. */
    protected abstract TransportProvider provider();

    /**
     * Whether the suite runs over TLS: the server presents a certificate of the {@link TestPki}'s
     * CA for 127.0.0.1, and the client trusts that CA.
     */
    protected boolean tls() {
        return false;
    }

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        later.shutdownNow();
    }

    /**
     * Answers an echo at once on the session's reader, "then-push:N" at once followed by a
     * stream's reading N, "late:MS" after MS milliseconds from another thread, and "never" not at
     * all.
     */
    private final class EchoServer implements ServerHandler {
        final BlockingQueue<Session> opened = new LinkedBlockingQueue<>();

        @Override
        public void sessionOpened(Session session) {
            opened.add(session);
        }

        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Hello) {
                session.send(HelloReply.accept("test-agent"));
            } else if (message instanceof Request r && r.call() instanceof Call.Echo e) {
                Response answer = new Response(r.id(), new Result.Echoed(e.payload()));
                String text = e.payload() instanceof Value.Text t ? t.value() : "";
                if (text.startsWith("then-push:")) {
                    session.send(answer);
                    session.send(new StreamData(7, Reading.ok("S", 0, Long.parseLong(text.substring(10)), Value.of(0))));
                } else if (text.startsWith("late:")) {
                    later.schedule(() -> session.send(answer), Long.parseLong(text.substring(5)), TimeUnit.MILLISECONDS);
                } else if (!text.equals("never")) {
                    session.send(answer);
                }
            }
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
        }
    }

    /** Completes each request's future, noting the thread that delivered it. */
    private static final class Answers implements ClientHandler {
        final Map<Long, CompletableFuture<Result>> pending = new ConcurrentHashMap<>();
        final Map<Long, Thread> deliveredOn = new ConcurrentHashMap<>();
        final List<Long> pushed = new CopyOnWriteArrayList<>();
        final CompletableFuture<HelloReply> hello = new CompletableFuture<>();
        final AtomicInteger closedCalls = new AtomicInteger();
        final AtomicReference<Throwable> closedBy = new AtomicReference<>();
        final CountDownLatch closed = new CountDownLatch(1);
        /** While set, the handler blocks on each stream reading until it is counted down. */
        volatile CountDownLatch holdReadings;

        @Override
        public void messageReceived(Message message) {
            if (message instanceof HelloReply h) {
                hello.complete(h);
            } else if (message instanceof Response r) {
                deliveredOn.put(r.id(), Thread.currentThread());
                CompletableFuture<Result> f = pending.remove(r.id());
                if (f != null) {
                    f.complete(r.result());
                }
            } else if (message instanceof StreamData d) {
                CountDownLatch hold = holdReadings;
                if (hold != null) {
                    try {
                        hold.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                pushed.add(d.reading().sequence());
            }
        }

        @Override
        public void closed(Throwable cause) {
            closedCalls.incrementAndGet();
            closedBy.set(cause);
            closed.countDown();
        }
    }

    private EchoServer connect() throws Exception {
        EchoServer handler = new EchoServer();
        server = provider.createServer(ServerOptions.builder().host("127.0.0.1")
                .tls(tls() ? TestPki.shared().serverTls() : null).build());
        server.start(handler);
        answers = new Answers();
        client = provider.createClient(ClientOptions.builder().host("127.0.0.1").port(server.localAddress().getPort())
                .tls(tls() ? TestPki.shared().clientTls() : null).build());
        client.connect(answers);
        client.send(Hello.of(ProtobufCodec.NAME, "test"));
        assertNotNull(answers.hello.get(10, TimeUnit.SECONDS));
        return handler;
    }

    /** Sends an echo of {@code text} and offers this thread until the answer or the deadline. */
    private CompletableFuture<Result> call(String text, long waitMillis) throws Exception {
        long id = ids.incrementAndGet();
        CompletableFuture<Result> f = new CompletableFuture<>();
        answers.pending.put(id, f);
        client.send(new Request(id, new Call.Echo(Value.of(text))));
        client.readWhileWaiting(f, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis));
        return f;
    }

    /** A call and its answer, after which the next caller finds the connection free to read. */
    private void callOnce() throws Exception {
        call("before", 10_000).get(10, TimeUnit.SECONDS);
    }

    private static long millisSince(long startedNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
    }

    private long lastId() {
        return ids.get();
    }

    @Test
    void aWaitingCallerReadsItsOwnAnswerOnItsOwnThread() throws Exception {
        connect();
        int onCaller = 0;
        for (int i = 0; i < 200; i++) {
            CompletableFuture<Result> f = call("call " + i, 10_000);
            assertEquals(new Result.Echoed(Value.of("call " + i)), f.get(10, TimeUnit.SECONDS));
            if (answers.deliveredOn.get(lastId()) == Thread.currentThread()) {
                onCaller++;
            }
        }
        // The first answer, and any after a pause of the caller longer than the connection's own
        // thread stays away, come through that thread; the others are read by the caller itself.
        assertTrue(onCaller >= 100, "only " + onCaller + " of 200 answers were read by their caller");
    }

    @Test
    void framesPushedWhileNobodyWaitsStillArriveAndInOrder() throws Exception {
        EchoServer handler = connect();
        Session session = handler.opened.poll(10, TimeUnit.SECONDS);
        assertNotNull(session);
        for (int i = 0; i < 20; i++) {
            call("call " + i, 10_000).get(10, TimeUnit.SECONDS);
        }
        for (int i = 0; i < 100; i++) { // nobody waits now: the connection's own thread reads these
            session.send(new StreamData(7, Reading.ok("S", 0, i, Value.of(i))));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (answers.pushed.size() < 100 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 100; i++) {
            expected.add(i);
        }
        assertEquals(expected, answers.pushed);
    }

    @Test
    void framesPushedDuringCallsAreDeliveredWholeAndInOrderByWhoeverReads() throws Exception {
        EchoServer handler = connect();
        Session session = handler.opened.poll(10, TimeUnit.SECONDS);
        assertNotNull(session);
        int pushed = 5_000;
        Thread pusher = new Thread(() -> {
            for (int i = 0; i < pushed; i++) {
                session.send(new StreamData(7, Reading.ok("S", 0, i, Value.of(new byte[i % 700]))));
            }
        }, "pusher");
        pusher.start();
        for (int i = 0; i < 2_000; i++) {
            assertEquals(new Result.Echoed(Value.of("call " + i)), call("call " + i, 10_000).get(10, TimeUnit.SECONDS));
        }
        pusher.join(30_000);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (answers.pushed.size() < pushed && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(pushed, answers.pushed.size());
        for (int i = 0; i < pushed; i++) {
            assertEquals(i, answers.pushed.get(i), "frame " + i);
        }
    }

    @Test
    void callersOnOneConnectionEachGetTheirAnswerWhileOneWaitsForASlowOne() throws Exception {
        connect();
        CompletableFuture<Result> slow = new CompletableFuture<>();
        Thread slowCaller = new Thread(() -> {
            try {
                slow.complete(call("late:6000", 20_000).get(20, TimeUnit.SECONDS));
            } catch (Exception e) {
                slow.completeExceptionally(e);
            }
        }, "slow-caller");
        slowCaller.start();
        List<Thread> quick = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger answered = new AtomicInteger();
        for (int t = 0; t < 3; t++) {
            int caller = t;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 300; i++) {
                    String text = "caller " + caller + " call " + i;
                    try {
                        assertEquals(new Result.Echoed(Value.of(text)), call(text, 10_000).get(10, TimeUnit.SECONDS));
                        answered.incrementAndGet();
                    } catch (Throwable e) {
                        failures.add(e);
                        return;
                    }
                }
            }, "quick-caller-" + t);
            quick.add(thread);
            thread.start();
        }
        for (Thread thread : quick) {
            thread.join(30_000);
        }
        assertEquals(List.of(), failures);
        assertEquals(900, answered.get());
        assertFalse(slow.isDone(), "the quick answers did not wait for the slow one");
        assertEquals(new Result.Echoed(Value.of("late:6000")), slow.get(20, TimeUnit.SECONDS));
    }

    @Test
    void aCallerLeavesWithItsAnswerWhileTheHandlerIsBusyWithAReadingThatCameRightAfterIt() throws Exception {
        connect();
        List<Long> expected = new ArrayList<>();
        for (int attempt = 0; attempt < 30; attempt++) {
            callOnce();
            CountDownLatch hold = new CountDownLatch(1);
            answers.holdReadings = hold;
            long started = System.nanoTime();
            String text = "then-push:" + attempt;
            CompletableFuture<Result> f = call(text, 10_000);
            assertEquals(new Result.Echoed(Value.of(text)), f.get(10, TimeUnit.SECONDS));
            long waitedMillis = millisSince(started);
            // The reading came in the same read as the answer, or after it: either way it is for
            // another thread to deliver, and the handler blocks on it until the latch is counted down.
            assertTrue(waitedMillis < 5_000, "attempt " + attempt + ": the caller got its answer after "
                    + waitedMillis + " ms, held up by the reading that followed it");
            answers.holdReadings = null;
            hold.countDown();
            expected.add((long) attempt);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (answers.pushed.size() < expected.size() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(expected, answers.pushed);
        }
        assertEquals(new Result.Echoed(Value.of("after")), call("after", 10_000).get(10, TimeUnit.SECONDS));
    }

    @Test
    void aCallerStopsReadingAtItsDeadlineAndTheAnswerComesAfterwards() throws Exception {
        connect();
        boolean readUntilTheDeadline = false;
        for (int attempt = 0; attempt < 20 && !readUntilTheDeadline; attempt++) {
            callOnce();
            long started = System.nanoTime();
            CompletableFuture<Result> f = call("late:600", 150);
            long waitedMillis = millisSince(started);
            assertFalse(f.isDone(), "no answer within the deadline");
            assertTrue(waitedMillis < 550, "the caller waited " + waitedMillis + " ms");
            // it read until its deadline, or found the connection taken and left the wait to the future
            readUntilTheDeadline = waitedMillis >= 140;
            assertEquals(new Result.Echoed(Value.of("late:600")), f.get(10, TimeUnit.SECONDS));
            assertNotNull(answers.deliveredOn.get(lastId()));
        }
        assertTrue(readUntilTheDeadline, "in 20 attempts, no caller found the connection free to read");
        // and the connection is as good as before
        assertEquals(new Result.Echoed(Value.of("after")), call("after", 10_000).get(10, TimeUnit.SECONDS));
    }

    @Test
    void aCallerLeavesSoonAfterAnotherThreadCompletesWhatItWaitsFor() throws Exception {
        connect();
        boolean readUntilDone = false;
        for (int attempt = 0; attempt < 20 && !readUntilDone; attempt++) {
            callOnce();
            // what a stage derived on another thread, or a document parsed off the reading thread, is
            CompletableFuture<String> doneElsewhere = new CompletableFuture<>();
            later.schedule(() -> doneElsewhere.complete("done"), 100, TimeUnit.MILLISECONDS);
            long started = System.nanoTime();
            client.readWhileWaiting(doneElsewhere, started + TimeUnit.SECONDS.toNanos(20));
            long waitedMillis = millisSince(started);
            assertTrue(waitedMillis < 2_000, "the caller read on for " + waitedMillis + " ms, not until its future was done");
            // it read until the future was done, or found the connection taken and left at once
            readUntilDone = waitedMillis >= 90;
            assertEquals("done", doneElsewhere.get(10, TimeUnit.SECONDS));
        }
        assertTrue(readUntilDone, "in 20 attempts, no caller found the connection free to read");
        assertEquals(new Result.Echoed(Value.of("after")), call("after", 10_000).get(10, TimeUnit.SECONDS));
    }

    /**
     * How late, at most, the best of the callers in
     * {@link #aCallerWhoseStageAnotherThreadCompletesLeavesAtOnce} leaves after the completion: a
     * client whose wait for I/O the completion ends leaves within this; one that reads in slices
     * leaves at a slice's end, and overrides it.
     */
    protected long latestLeaveAfterCompletionElsewhereMillis() {
        return 10;
    }

    @Test
    void aCallerWhoseStageAnotherThreadCompletesLeavesAtOnce() throws Exception {
        connect();
        long bestLateNanos = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 20; attempt++) {
            callOnce();
            CompletableFuture<String> doneElsewhere = new CompletableFuture<>();
            AtomicLong completedAt = new AtomicLong();
            // 125 ms: well inside a 50 ms slice of a wait that nothing ends early (50, 100, 150 ms)
            later.schedule(() -> {
                completedAt.set(System.nanoTime());
                doneElsewhere.complete("done");
            }, 125, TimeUnit.MILLISECONDS);
            long started = System.nanoTime();
            client.readWhileWaiting(doneElsewhere, started + TimeUnit.SECONDS.toNanos(20));
            long returned = System.nanoTime();
            assertEquals("done", doneElsewhere.get(10, TimeUnit.SECONDS));
            if (returned - started >= TimeUnit.MILLISECONDS.toNanos(120)) { // it read until the stage was done
                bestLateNanos = Math.min(bestLateNanos, returned - completedAt.get());
            }
        }
        assertTrue(bestLateNanos != Long.MAX_VALUE, "in 20 attempts, no caller found the connection free to read");
        long bestLateMillis = TimeUnit.NANOSECONDS.toMillis(bestLateNanos);
        assertTrue(bestLateMillis <= latestLeaveAfterCompletionElsewhereMillis(), "the quickest caller left "
                + bestLateMillis + " ms after another thread completed its stage");
        assertEquals(new Result.Echoed(Value.of("after")), call("after", 10_000).get(10, TimeUnit.SECONDS));
    }

    @Test
    void theAgentClosingWhileACallerReadsEndsTheConnectionOnceAndFreesTheCaller() throws Exception {
        EchoServer handler = connect();
        Session session = handler.opened.poll(10, TimeUnit.SECONDS);
        assertNotNull(session);
        closeWhileACallerReads(session::close);
        assertFalse(client.isOpen());
    }

    @Test
    void closingTheClientWhileACallerReadsFreesTheCallerAndReportsNoError() throws Exception {
        connect();
        closeWhileACallerReads(client::close);
    }

    /** A caller reads for an answer that never comes, and {@code close} ends the connection meanwhile. */
    private void closeWhileACallerReads(Runnable close) throws Exception {
        callOnce();
        later.schedule(close, 300, TimeUnit.MILLISECONDS);
        long started = System.nanoTime();
        CompletableFuture<Result> f = call("never", 20_000);
        long waitedMillis = millisSince(started);
        assertFalse(f.isDone());
        assertTrue(waitedMillis < 10_000, "the caller was freed after " + waitedMillis + " ms");
        assertTrue(answers.closed.await(10, TimeUnit.SECONDS), "the handler heard of the close");
        Thread.sleep(100);
        assertEquals(1, answers.closedCalls.get(), "closed is reported once");
        assertNull(answers.closedBy.get(), "an orderly close is no error");
    }
}
