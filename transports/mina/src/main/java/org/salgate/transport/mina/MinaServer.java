package org.salgate.transport.mina;

import com.sun.management.UnixOperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.RuntimeIoException;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteRequest;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.Ports;
import org.salgate.transport.QueuedSession;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.wire.Message;

/**
 * The MINA server: a {@link NioSocketAcceptor}, paced by an {@link AcceptPacer}, whose sessions are
 * {@link MinaSession}s. It is the acceptor's handler, whose events run on the session's processor thread.
 */
final class MinaServer extends FrameHandler implements TransportServer {

    private final ServerOptions options;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final MemoryBudget budget;
    private ServerHandler handler;
    private IoThreads threads;
    /** Writes the batches that follow a send (see {@link IoWriter}). */
    private ExecutorService writers;
    private AcceptPacer pacer;
    private NioSocketAcceptor acceptor;
    private volatile InetSocketAddress localAddress;

    MinaServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
    }

    @Override
    public void start(ServerHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("this MINA server was already started; create a new one");
        }
        this.handler = handler;
        int ioThreads = options.ioThreads() > 0 ? options.ioThreads() : Runtime.getRuntime().availableProcessors();
        threads = new IoThreads("salgate-mina-server", ioThreads);
        writers = Executors.newFixedThreadPool(ioThreads, IoThreads.factory("salgate-mina-server-write"));
        pacer = new AcceptPacer(threads.processors, new AcceptBackoff(toString()));
        acceptor = new NioSocketAcceptor(threads.pool, pacer);
        acceptor.setReuseAddress(true);
        // MINA's default backlog (50) drops the SYNs of a burst of connections, which then wait 1, 3, 7... s
        acceptor.setBacklog(Ports.ACCEPT_BACKLOG);
        acceptor.setCloseOnDeactivation(true);
        acceptor.getSessionConfig().setTcpNoDelay(true);
        addTls(acceptor.getFilterChain(), options.tls(), null, 0, null);
        acceptor.setHandler(this);
        try {
            acceptor.bind(new InetSocketAddress(options.host(), options.port()));
        } catch (IOException | RuntimeIoException e) {
            release();
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                    + cause.getMessage(), cause);
        }
        localAddress = acceptor.getLocalAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && acceptor != null) {
            pacer.stopped = true;
            acceptor.unbind(); // closes the sessions
            release();
        }
    }

    private void release() {
        threads.release(acceptor);
        writers.shutdown();
    }

    @Override
    public void sessionCreated(IoSession io) {
        MinaSession session = new MinaSession(io, options, budget, writers);
        attach(io, session.frameReader());
        io.setAttribute(MinaSession.KEY, session);
    }

    @Override
    public void sessionOpened(IoSession io) {
        handler.sessionOpened(MinaSession.of(io));
    }

    @Override
    void deliver(IoSession io, Message message) {
        handler.messageReceived(MinaSession.of(io), message);
    }

    @Override
    public void messageSent(IoSession io, Object message) {
        MinaSession.of(io).writer.onSent(message);
    }

    @Override
    void failed(IoSession io, Throwable failure) {
        MinaSession session = MinaSession.of(io);
        if (session != null) {
            session.fail(failure);
        }
    }

    @Override
    void closed(IoSession io) {
        MinaSession session = MinaSession.of(io);
        if (session != null) { // its handler heard of it
            session.onClosed();
            handler.sessionClosed(session, session.failure());
        }
    }

    /**
     * A server's I/O processors, to which its acceptor hands each session it accepts, on its own
     * thread: that thread waits here while fewer than {@link #SPARE_DESCRIPTORS} file descriptors are
     * free, pausing as an {@link AcceptBackoff} says, and new connections wait in the listen backlog.
     * So MINA's acceptor never meets an accept that fails for want of descriptors, which it would log
     * at ERROR with its stack trace every 50 ms. Off Unix, where the JDK does not count them, it may.
     */
    static final class AcceptPacer implements IoProcessor<NioSession> {

        static final long SPARE_DESCRIPTORS = 4;

        private final IoProcessor<NioSession> processors;
        private final AcceptBackoff backoff;
        private final UnixOperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean()
                instanceof UnixOperatingSystemMXBean unix ? unix : null;
        /** Sessions to accept before descriptors are counted again; the acceptor's thread only. */
        private long uncounted;
        /** Set as the server closes: the acceptor waits for descriptors no more. */
        private volatile boolean stopped;

        AcceptPacer(IoProcessor<NioSession> processors, AcceptBackoff backoff) {
            this.processors = processors;
            this.backoff = backoff;
        }

        @Override
        public void add(NioSession session) {
            if (os != null && --uncounted <= 0) {
                awaitSpareDescriptors();
            }
            processors.add(session);
        }

        private void awaitSpareDescriptors() {
            long free;
            while ((free = os.getMaxFileDescriptorCount() - os.getOpenFileDescriptorCount()) < SPARE_DESCRIPTORS
                    && !stopped) {
                backoff.failed(new IOException("only " + free + " file descriptors are free"));
            }
            backoff.accepted();
            // a session takes a descriptor at least: count again before half of the spare ones may be gone
            uncounted = Math.max(1, (free - SPARE_DESCRIPTORS) / 2);
        }

        // the rest is the processors' own
        @Override public boolean isDisposing() { return processors.isDisposing(); }
        @Override public boolean isDisposed() { return processors.isDisposed(); }
        @Override public void dispose() { processors.dispose(); }
        @Override public void flush(NioSession session) { processors.flush(session); }
        @Override public void write(NioSession session, WriteRequest request) { processors.write(session, request); }
        @Override public void updateTrafficControl(NioSession session) { processors.updateTrafficControl(session); }
        @Override public void remove(NioSession session) { processors.remove(session); }
    }

    /** A server session over a MINA {@link IoSession}, whose outbound queue an {@link IoWriter} drains. */
    static final class MinaSession extends QueuedSession {

        static final AttributeKey KEY = new AttributeKey(MinaSession.class, "session");

        /** The MINA session underneath; tests read its counters. */
        final IoSession io;
        private final IoWriter writer;
        /** The first failure, reported as the session closes. */
        private volatile Throwable failure;

        MinaSession(IoSession io, ServerOptions options, MemoryBudget budget, Executor nextBatches) {
            super(io.getId(), options, budget);
            this.io = io;
            this.writer = new IoWriter(io, queue(), nextBatches);
        }

        static MinaSession of(IoSession io) {
            return (MinaSession) io.getAttribute(KEY);
        }

        @Override
        public String remoteAddress() {
            return String.valueOf(io.getRemoteAddress());
        }

        @Override
        protected void startWriting() {
            writer.writeNext();
        }

        @Override
        protected void abort(Throwable cause) {
            fail(cause);
            queue().discard();
            io.closeNow();
        }

        @Override
        public boolean isOpen() {
            return io.isConnected() && !io.isClosing();
        }

        @Override
        public void close() {
            writer.closeWhenWritten();
        }

        /** MINA closed the session: the frames still waiting can no longer leave. */
        void onClosed() {
            queue().discard();
        }

        void fail(Throwable cause) {
            if (failure == null) {
                failure = cause;
            }
        }

        Throwable failure() {
            return failure;
        }
    }

    /** What the connections draw on together; tests read it. */
    MemoryBudget budget() {
        return budget;
    }

    @Override
    public String toString() {
        return "MINA server " + options.host() + ":" + options.port();
    }
}
