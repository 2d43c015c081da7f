package org.salgate.transport.mina;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.RuntimeIoException;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.future.CloseFuture;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSession;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.Ports;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.wire.CodecException;
import org.salgate.wire.Framing;
import org.salgate.transport.MemoryBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The MINA server: a {@link PacedAcceptor} whose sessions are {@link MinaSession}s. */
final class MinaServer implements TransportServer {

    static final String WRITE_TIMEOUT_PROPERTY = "mina.writeTimeoutSeconds";
    static final int DEFAULT_WRITE_TIMEOUT_SECONDS = 60;

    private static final Logger LOG = LoggerFactory.getLogger(MinaServer.class);
    private static final long CLOSE_GRACE_MILLIS = 5_000;
    /** How long a stop waits for the processors' loops to leave before disposing them anyway. */
    private static final long LOOPS_LEAVE_MILLIS = 1_000;

    private final ServerOptions options;
    private final AtomicBoolean started = new AtomicBoolean();
    private final MemoryBudget budget;
    private final AtomicBoolean closed = new AtomicBoolean();
    private ExecutorService threads;
    /** Runs the processors' loops on {@link #threads}, and disposes the processors once they have left. */
    private ProcessorLoops loops;
    private SimpleIoProcessorPool<NioSession> processors;
    private PacedAcceptor acceptor;
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
        int writeTimeout = intProperty(WRITE_TIMEOUT_PROPERTY, DEFAULT_WRITE_TIMEOUT_SECONDS);
        int ioThreads = options.ioThreads() > 0 ? options.ioThreads() : Runtime.getRuntime().availableProcessors();

        // the acceptor's thread and one per processor; a processor's loop ends when it has no
        // session left and starts again with the next, so each may briefly need a second thread
        threads = IoThreads.newPool("salgate-mina-server", 2 * (ioThreads + 1));
        loops = new ProcessorLoops(threads);
        processors = new SimpleIoProcessorPool<>(QuietLoopProcessor.class, loops, ioThreads, SelectorProvider.provider());
        acceptor = new PacedAcceptor(threads, processors, new AcceptBackoff(toString()));
        acceptor.setReuseAddress(true);
        // MINA's default backlog (50) drops the SYNs of a burst of connections, which then wait 1, 3, 7... s
        acceptor.setBacklog(Ports.ACCEPT_BACKLOG);
        acceptor.setCloseOnDeactivation(true);
        acceptor.getSessionConfig().setTcpNoDelay(true);
        acceptor.getSessionConfig().setWriteTimeout(writeTimeout);
        TlsFilters.addServer(acceptor.getFilterChain(), options.tls());
        acceptor.setHandler(new Handler(handler));
        try {
            acceptor.bind(new InetSocketAddress(options.host(), options.port()));
        } catch (IOException | RuntimeIoException e) {
            release();
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                    + cause.getMessage(), cause);
        }
        localAddress = acceptor.getLocalAddress();
        LOG.debug("MINA server listening on {} with {} I/O threads", localAddress, ioThreads);
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true) || acceptor == null) {
            return;
        }
        List<CloseFuture> closing = new ArrayList<>();
        acceptor.unbind();
        for (IoSession session : acceptor.getManagedSessions().values()) {
            closing.add(session.closeNow());
        }
        if (!IoThreads.onIoThread()) {
            long deadline = System.currentTimeMillis() + CLOSE_GRACE_MILLIS;
            for (CloseFuture f : closing) {
                f.awaitUninterruptibly(Math.max(1, deadline - System.currentTimeMillis()));
            }
        }
        release();
    }

    private void release() {
        acceptor.dispose(false);
        if (IoThreads.onIoThread()) {
            processors.dispose(); // a loop of this server's may be the caller: it cannot wait for itself
        } else {
            loops.disposeOnceLeft(processors, LOOPS_LEAVE_MILLIS);
        }
        threads.shutdown();
        if (!IoThreads.onIoThread()) {
            try {
                if (!threads.awaitTermination(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                    LOG.warn("MINA server threads did not stop within {} ms", CLOSE_GRACE_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private int intProperty(String name, int fallback) {
        return (int) Math.min(Integer.MAX_VALUE, longProperty(name, fallback));
    }

    private long longProperty(String name, long fallback) {
        String value = options.properties().get(name);
        if (value == null) {
            return fallback;
        }
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed >= 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("transport property " + name + " must be a whole number of 0 or more, got '"
                + value + "'");
    }

    /** Bridges MINA's events to the {@link ServerHandler}; all run on the session's processor thread. */
    private final class Handler extends IoHandlerAdapter {
        private final ServerHandler handler;

        Handler(ServerHandler handler) {
            this.handler = handler;
        }

        @Override
        public void sessionCreated(IoSession io) {
            MinaSession session = new MinaSession(io, options, budget);
            IoReader.attach(io, session.frameReader());
            io.setAttribute(MinaSession.KEY, session);
        }

        @Override
        public void sessionOpened(IoSession io) {
            handler.sessionOpened(MinaSession.of(io));
        }

        @Override
        public void messageReceived(IoSession io, Object bytes) throws CodecException {
            MinaSession session = MinaSession.of(io);
            IoReader.received(io, bytes, message -> handler.messageReceived(session, message));
        }

        @Override
        public void messageSent(IoSession io, Object message) {
            MinaSession.of(io).onMessageSent(message);
        }

        @Override
        public void exceptionCaught(IoSession io, Throwable cause) {
            Throwable failure = Failures.unwrap(cause);
            MinaSession session = MinaSession.of(io);
            if (session != null) {
                session.fail(failure);
            }
            if (Failures.isExpected(failure)) {
                LOG.debug("closing session {}: {}", io.getId(), failure.toString());
            } else {
                LOG.warn("closing session {} after an unexpected error", io.getId(), failure);
            }
            if (failure instanceof Framing.HttpRequestException) {
                io.write(IoBuffer.wrap(Framing.httpBadRequest()));
                io.closeOnFlush();
                return;
            }
            io.closeNow();
        }

        @Override
        public void sessionClosed(IoSession io) {
            IoReader.release(io);
            MinaSession session = MinaSession.of(io);
            if (session == null) {
                return;
            }
            session.onClosed();
            if (session.markCloseReported()) {
                handler.sessionClosed(session, session.failure());
            }
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
