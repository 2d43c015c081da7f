package org.salgate.transport.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.future.WriteFuture;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The processor skips the selector wake-ups its own loop asks for before its flush, and makes the
 * ones asked for after it; it skips the read of a socket it has just emptied, and loses no byte; a
 * peer that resets, or a write to one that has gone, closes its session with the failure, without
 * MINA's ERROR line. Work put off to the next pass runs on the loop's thread as that pass starts,
 * and the pass goes on to read and flush without waiting. A MINA acceptor with one {@link QuietLoopProcessor} and plain sockets as
 * peers; the handler writes on the loop's thread, as the agent's inline answers do.
 */
@Timeout(60)
class QuietLoopProcessorTest {

    private static final int READ_TIMEOUT_MILLIS = 20_000;

    private ExecutorService threads;
    private QuietLoopProcessor processor;
    private NioSocketAcceptor acceptor;

    @BeforeEach
    void start() {
        threads = Executors.newCachedThreadPool();
        processor = new QuietLoopProcessor(threads, SelectorProvider.provider());
        acceptor = new NioSocketAcceptor(threads, processor);
    }

    @AfterEach
    void stop() throws InterruptedException {
        acceptor.dispose(true);
        processor.dispose();
        threads.shutdownNow();
        threads.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void anAnswerWrittenOnTheLoopLeavesInTheSamePassWithoutWakingTheSelector() throws IOException {
        acceptor.setHandler(new IoHandlerAdapter() {
            @Override
            public void messageReceived(IoSession session, Object message) {
                session.write(copyOf(message));
            }
        });
        acceptor.bind(new InetSocketAddress("127.0.0.1", 0));
        int exchanges = 200;
        try (Socket peer = connect()) {
            echoes(peer, exchanges);
        }
        assertTrue(processor.wakeupsSkipped() >= exchanges,
                "each answer's wake-up is skipped; skipped " + processor.wakeupsSkipped());
        assertTrue(processor.emptyReadsSkipped() >= exchanges,
                "each request's read of an emptied socket is skipped; skipped " + processor.emptyReadsSkipped());
    }

    @Test
    void bytesFollowedByTheEndOfStreamAreAllReadAndTheCloseIsSeen() throws Exception {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        CompletableFuture<byte[]> atClose = new CompletableFuture<>();
        acceptor.setHandler(new IoHandlerAdapter() {
            @Override
            public void messageReceived(IoSession session, Object message) {
                IoBuffer in = (IoBuffer) message;
                byte[] bytes = new byte[in.remaining()];
                in.get(bytes);
                received.write(bytes, 0, bytes.length);
            }

            @Override
            public void sessionClosed(IoSession session) {
                atClose.complete(received.toByteArray());
            }
        });
        acceptor.bind(new InetSocketAddress("127.0.0.1", 0));
        byte[] sent = new byte[300_000];
        for (int i = 0; i < sent.length; i++) {
            sent[i] = (byte) (i * 31);
        }
        try (Socket peer = connect()) {
            OutputStream out = peer.getOutputStream();
            out.write(sent, 0, 7); // a short read on its own
            out.flush();
            Thread.sleep(50);
            out.write(sent, 7, sent.length - 7); // more than one read buffer, then the end of stream
        }
        assertArrayEquals(sent, atClose.get(30, TimeUnit.SECONDS), "every byte, in order, before the close");
    }

    @Test
    void aWriteMadeAsAnotherSessionClosesWakesTheSelector() throws Exception {
        AtomicReference<IoSession> watcher = new AtomicReference<>();
        acceptor.setHandler(new IoHandlerAdapter() {
            @Override
            public void messageReceived(IoSession session, Object message) {
                watcher.compareAndSet(null, session);
                session.write(IoBuffer.wrap(new byte[] {1}));
            }

            @Override
            public void sessionClosed(IoSession session) {
                IoSession w = watcher.get();
                if (w != null && w != session) {
                    w.write(IoBuffer.wrap(new byte[] {2})); // on the loop, in its remove phase
                }
            }
        });
        acceptor.bind(new InetSocketAddress("127.0.0.1", 0));
        try (Socket watching = connect()) {
            watching.getOutputStream().write(0);
            assertEquals(1, watching.getInputStream().read(), "the watcher is known to the server");
            long before = processor.wakeupsFromLoopMade();
            try (Socket leaving = connect()) {
                leaving.getOutputStream().write(9); // keeps the watcher, which the handler saw first
                assertEquals(1, leaving.getInputStream().read());
            }
            assertEquals(2, watching.getInputStream().read(), "the watcher hears of the close");
            assertTrue(processor.wakeupsFromLoopMade() > before,
                    "the write made in the remove phase woke the selector rather than wait for its next event");
        }
    }

    @Test
    void workPutOffToTheNextPassRunsOnTheLoopAndWhatItWritesLeavesInThatPass() throws IOException {
        AtomicReference<String> wrongThread = new AtomicReference<>();
        acceptor.setHandler(new IoHandlerAdapter() {
            @Override
            public void messageReceived(IoSession session, Object message) {
                IoBuffer out = copyOf(message);
                Thread loop = Thread.currentThread();
                QuietLoopProcessor.NEXT_PASS.execute(() -> {
                    if (Thread.currentThread() != loop) {
                        wrongThread.set(Thread.currentThread().getName());
                    }
                    session.write(out);
                });
            }
        });
        acceptor.bind(new InetSocketAddress("127.0.0.1", 0));
        int exchanges = 50;
        long start = System.nanoTime();
        try (Socket peer = connect()) {
            echoes(peer, exchanges);
        }
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertNull(wrongThread.get(), "the work ran on another thread than the loop's");
        assertTrue(processor.passesWithWork() >= exchanges, "passes with work: " + processor.passesWithWork());
        // A pass that waited in its select (for up to a second, MINA's timeout) before it flushed what
        // the work wrote would take 50 s over these exchanges.
        assertTrue(tookMillis < 10_000, exchanges + " echoes written at the next pass took " + tookMillis + " ms");
        assertTrue(processor.wakeupsSkipped() >= exchanges,
                "the work's writes are flushed in their pass without waking the selector; skipped "
                        + processor.wakeupsSkipped());
    }

    @Test
    void workThatPutsItselfOffPassAfterPassLeavesTheLoopReadingEveryone() throws IOException {
        AtomicBoolean endless = new AtomicBoolean(true);
        AtomicBoolean started = new AtomicBoolean();
        acceptor.setHandler(new IoHandlerAdapter() {
            @Override
            public void sessionOpened(IoSession session) {
                if (started.compareAndSet(false, true)) {
                    again(endless); // as a stream whose next batch is always ready
                }
            }

            @Override
            public void messageReceived(IoSession session, Object message) {
                session.write(copyOf(message));
            }
        });
        acceptor.bind(new InetSocketAddress("127.0.0.1", 0));
        try (Socket first = connect()) {
            first.getOutputStream().write(1);
            assertEquals(1, first.getInputStream().read());
            long passes = processor.passesWithWork();
            try (Socket other = connect()) {
                echoes(other, 20);
            }
            // each byte is read in a pass of its own (the next is sent once its echo is back), and
            // every pass starts with the work
            assertTrue(processor.passesWithWork() >= passes + 20,
                    "the work ran in " + (processor.passesWithWork() - passes) + " passes during 20 echoes");
        } finally {
            endless.set(false);
        }
    }

    /** Sends {@code exchanges} bytes one at a time, each once the last has come back. */
    private static void echoes(Socket peer, int exchanges) throws IOException {
        OutputStream out = peer.getOutputStream();
        InputStream in = peer.getInputStream();
        for (int i = 0; i < exchanges; i++) {
            out.write(i & 0x7f);
            out.flush();
            assertEquals(i & 0x7f, in.read(), "echo " + i);
        }
    }

    /** What MINA read, copied into a buffer of its own to be written back. */
    private static IoBuffer copyOf(Object message) {
        IoBuffer in = (IoBuffer) message;
        IoBuffer out = IoBuffer.allocate(in.remaining());
        out.put(in).flip();
        return out;
    }

    /** Puts itself off to the loop's next pass, pass after pass, until {@code going} is false. */
    private static void again(AtomicBoolean going) {
        if (going.get()) {
            QuietLoopProcessor.NEXT_PASS.execute(() -> again(going));
        }
    }

    @Test
    void workPutOffOnAThreadThatRunsNoLoopRunsAtOnce() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        QuietLoopProcessor.NEXT_PASS.execute(() -> ranOn.set(Thread.currentThread()));
        assertEquals(Thread.currentThread(), ranOn.get());
    }

    /** A handler that records the failure and the close of its one session. */
    private static final class FailureRecorder extends IoHandlerAdapter {
        final CompletableFuture<IoSession> opened = new CompletableFuture<>();
        final CompletableFuture<Throwable> failure = new CompletableFuture<>();
        final CompletableFuture<Void> closed = new CompletableFuture<>();

        @Override
        public void sessionOpened(IoSession session) {
            opened.complete(session);
        }

        @Override
        public void exceptionCaught(IoSession session, Throwable cause) {
            failure.complete(cause);
            session.closeNow();
        }

        @Override
        public void sessionClosed(IoSession session) {
            closed.complete(null);
        }
    }

    /** Runs {@code body} with standard error (where the tests' logging writes) captured; returns it. */
    private static String stderrOf(ThrowingRunnable body) throws Exception {
        PrintStream before = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setErr(before);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Closes the socket with an RST: no linger, so the kernel resets the connection. */
    private static void reset(Socket peer) throws IOException {
        peer.setSoLinger(true, 0);
        peer.close();
    }

    @Test
    void aPeerThatResetsClosesItsSessionWithTheFailureAndNoErrorLine() throws Exception {
        FailureRecorder handler = new FailureRecorder();
        acceptor.setHandler(handler);
        acceptor.bind(new InetSocketAddress("127.0.0.1", 0));
        String logged = stderrOf(() -> {
            Socket peer = connect();
            handler.opened.get(30, TimeUnit.SECONDS);
            reset(peer);
            assertInstanceOf(IOException.class, handler.failure.get(30, TimeUnit.SECONDS), "the reset reaches the handler");
            handler.closed.get(30, TimeUnit.SECONDS);
        });
        assertTrue(processor.socketFailures() >= 1, "the failed read closed the session here");
        assertFalse(logged.contains("occured while trying"), "MINA logged the reset: " + logged);
    }

    @Test
    void aWriteToAPeerThatHasGoneClosesItsSessionWithTheFailureAndNoErrorLine() throws Exception {
        FailureRecorder handler = new FailureRecorder();
        acceptor.setHandler(handler);
        acceptor.bind(new InetSocketAddress("127.0.0.1", 0));
        AtomicReference<WriteFuture> written = new AtomicReference<>();
        String logged = stderrOf(() -> {
            Socket peer = connect();
            IoSession session = handler.opened.get(30, TimeUnit.SECONDS);
            session.suspendRead(); // the loop does not read the reset: the write meets it
            Thread.sleep(100);
            reset(peer);
            Thread.sleep(200); // the reset arrives
            written.set(session.write(IoBuffer.wrap(new byte[64 * 1024])));
            assertInstanceOf(IOException.class, handler.failure.get(30, TimeUnit.SECONDS),
                    "the failed write reaches the handler");
            handler.closed.get(30, TimeUnit.SECONDS);
            assertTrue(written.get().await(30, TimeUnit.SECONDS), "the write's future is done");
        });
        assertFalse(written.get().isWritten(), "the write is not reported written");
        assertTrue(processor.socketFailures() >= 1, "the failed write closed the session here");
        assertFalse(logged.contains("while trying to write"), "MINA logged the failed write: " + logged);
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(acceptor.getLocalAddress(), READ_TIMEOUT_MILLIS);
        s.setSoTimeout(READ_TIMEOUT_MILLIS);
        s.setTcpNoDelay(true);
        return s;
    }
}
