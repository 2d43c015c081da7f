package org.salgate.transport.mina;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.mina.core.RuntimeIoException;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.Ports;
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
            pacer.stop();
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
        MinaSession.of(io).onMessageSent(message);
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

    /** What the connections draw on together; tests read it. */
    MemoryBudget budget() {
        return budget;
    }

    @Override
    public String toString() {
        return "MINA server " + options.host() + ":" + options.port();
    }
}
