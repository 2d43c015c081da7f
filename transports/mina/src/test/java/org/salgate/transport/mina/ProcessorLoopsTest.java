package org.salgate.transport.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.future.ConnectFuture;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.apache.mina.transport.socket.nio.NioSocketConnector;
import org.apache.mina.util.ExceptionMonitor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client's processor, and a server's pool of processors, are disposed once their loops have
 * left, so that no second loop starts and nothing is reported to MINA's exception monitor. The gap
 * in MINA's loop, between forgetting that it runs and leaving, is held open here for a while (the
 * processor below sleeps in it once), where on its own it lasts a few instructions: the first test
 * shows what a dispose that lands in it does, the others that {@link ProcessorLoops#disposeOnceLeft}
 * waits it out.
 */
@Timeout(60)
class ProcessorLoopsTest {

    /** Every {@link SlowToLeave} built, in the order built. */
    private static final List<SlowToLeave> BUILT = new CopyOnWriteArrayList<>();

    private final List<Throwable> reported = new CopyOnWriteArrayList<>();
    private ExceptionMonitor monitorBefore;
    private ExecutorService pool;
    private ProcessorLoops loops;
    private SlowToLeave processor;
    private NioSocketConnector connector;
    private ServerSocket peer;

    /** Sleeps once in the gap of its loop's way out, when asked to. */
    public static final class SlowToLeave extends QuietLoopProcessor {
        final AtomicBoolean sleepInGap = new AtomicBoolean();
        final CountDownLatch inGap = new CountDownLatch(1);

        /** The constructor MINA's processor pool looks for. */
        public SlowToLeave(Executor executor, SelectorProvider provider) {
            super(executor, provider);
            BUILT.add(this);
        }

        /** MINA asks this between forgetting that the loop runs and leaving (and nowhere else). */
        @Override
        protected boolean isSelectorEmpty() {
            if (sleepInGap.getAndSet(false)) {
                inGap.countDown();
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.isSelectorEmpty();
        }
    }

    @BeforeEach
    void start() throws IOException {
        monitorBefore = ExceptionMonitor.getInstance();
        ExceptionMonitor.setInstance(new ExceptionMonitor() {
            @Override
            public void exceptionCaught(Throwable cause) {
                reported.add(cause);
            }
        });
        pool = Executors.newCachedThreadPool();
        loops = new ProcessorLoops(pool);
        BUILT.clear();
        processor = new SlowToLeave(loops, SelectorProvider.provider());
        connector = new NioSocketConnector(pool, processor);
        connector.setHandler(new IoHandlerAdapter());
        peer = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void stop() throws Exception {
        ExceptionMonitor.setInstance(monitorBefore);
        connector.dispose(true);
        if (!processor.isDisposed()) {
            processor.dispose();
        }
        peer.close();
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "the pool's threads end");
    }

    /**
     * Connects, closes the session and waits for its close: the loop then has no session left, and
     * sleeps in the gap on its way out, once it gets there.
     */
    private void openAndClose() throws InterruptedException {
        ConnectFuture connected = connector.connect(new InetSocketAddress(peer.getInetAddress(), peer.getLocalPort()));
        assertTrue(connected.await(10, TimeUnit.SECONDS) && connected.isConnected(), "connected");
        IoSession session = connected.getSession();
        processor.sleepInGap.set(true);
        assertTrue(session.closeNow().await(10, TimeUnit.SECONDS), "the session closed");
        assertTrue(loops.running(), "the loop has not left yet");
    }

    private void awaitNoLoop() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (loops.running() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertFalse(loops.running(), "every loop of the processor has returned");
    }

    @Test
    void aDisposeInTheGapOfTheLoopsWayOutStartsASecondLoopWhoseSelectorIsClosedUnderIt() throws Exception {
        openAndClose();
        processor.wakeLoop();
        assertTrue(processor.inGap.await(10, TimeUnit.SECONDS), "the loop reached the gap");

        processor.dispose(); // what a client's close did right after its session closed

        awaitNoLoop();
        assertTrue(reported.stream().anyMatch(ClosedSelectorException.class::isInstance),
                "MINA reports the closed selector; reported: " + reported);
    }

    @Test
    void disposingOnceTheLoopHasLeftReportsNothingEvenWhenAskedInTheGap() throws Exception {
        openAndClose();
        processor.wakeLoop();
        assertTrue(processor.inGap.await(10, TimeUnit.SECONDS), "the loop reached the gap");

        loops.disposeOnceLeft(processor, 10_000);

        assertTrue(processor.isDisposed(), "the processor is disposed");
        awaitNoLoop();
        assertEquals(List.of(), reported, "nothing reported to MINA's exception monitor");
    }

    @Test
    void aLoopThatStillServesASessionIsDisposedAfterTheGrace() throws Exception {
        ConnectFuture connected = connector.connect(new InetSocketAddress(peer.getInetAddress(), peer.getLocalPort()));
        assertTrue(connected.await(10, TimeUnit.SECONDS) && connected.isConnected(), "connected");
        long t0 = System.nanoTime();

        loops.disposeOnceLeft(processor, 200);

        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(waited >= 200, "waited out the grace for a loop that had a session: " + waited + " ms");
        assertTrue(processor.isDisposed(), "the processor is disposed");
        assertFalse(connected.getSession().isConnected(), "disposing closed the session");
        awaitNoLoop();
        assertEquals(List.of(), reported, "nothing reported to MINA's exception monitor");
    }

    @Test
    void aServersPoolOfProcessorsIsDisposedOnceEveryLoopHasLeftEvenWhenAskedInTheGap() throws Exception {
        SimpleIoProcessorPool<NioSession> processors =
                new SimpleIoProcessorPool<>(SlowToLeave.class, loops, 2, SelectorProvider.provider());
        List<SlowToLeave> pooled = BUILT.subList(1, BUILT.size());
        assertEquals(2, pooled.size(), "the pool built its processors on the loops' executor");
        NioSocketAcceptor acceptor = new NioSocketAcceptor(pool, processors);
        acceptor.setHandler(new IoHandlerAdapter());
        acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        List<Socket> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                clients.add(new Socket(InetAddress.getLoopbackAddress(), acceptor.getLocalAddress().getPort()));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (acceptor.getManagedSessionCount() < clients.size() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(clients.size(), acceptor.getManagedSessionCount(), "every client was accepted");
            pooled.forEach(p -> p.sleepInGap.set(true));
            acceptor.unbind();
            for (IoSession session : acceptor.getManagedSessions().values()) {
                assertTrue(session.closeNow().await(10, TimeUnit.SECONDS), "the session closed");
            }
            acceptor.dispose(false);
            pooled.forEach(QuietLoopProcessor::wakeLoop);
            for (SlowToLeave p : pooled) { // four sessions with consecutive ids: two on each processor
                assertTrue(p.inGap.await(10, TimeUnit.SECONDS), "each loop reached the gap");
            }

            loops.disposeOnceLeft(processors, 10_000);

            assertTrue(processors.isDisposed(), "the pool is disposed");
            pooled.forEach(p -> assertTrue(p.isDisposed(), "each of its processors is disposed"));
            awaitNoLoop();
            assertEquals(List.of(), reported, "nothing reported to MINA's exception monitor");
        } finally {
            for (Socket c : clients) {
                c.close();
            }
        }
    }
}
