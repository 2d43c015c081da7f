package org.salgate.transport.rmi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.rmi.RemoteException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.TransportClient;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An RMI client: asks the agent's port for the agent's stub ({@link #fetchAgent}) and opens a
 * session, reaching both through its own {@link RmiClientSocketFactory}. {@link #send} is a remote
 * call; one at a time may carry a frame back, handed on on the caller's thread before any later
 * poll's frames. Everything else the agent sends comes with the polls of the client's own poller
 * thread, which keeps one {@link SessionRemote#poll} under way; the client listens on no socket.
 */
final class RmiTransportClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(RmiTransportClient.class);

    /** The most an agent's answer to a bootstrap may take: its stub takes a few hundred bytes. */
    static final int MAX_STUB_BYTES = 16 * 1024;

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile SessionRemote session;
    private ClientHandler handler;
    /**
     * Held by whoever hands frames to the handler: the poller, or the one call that may carry a frame
     * back, from before the call. So frames are handed on in the order the agent sent them, and a
     * close meanwhile is reported after them.
     */
    private final ReentrantLock turn = new ReentrantLock();

    RmiTransportClient(ClientOptions options) {
        this.options = options;
        this.codec = new ConnectionCodec(options.codec());
    }

    @Override
    public void connect(ClientHandler handler) throws IOException {
        if (session != null || closing.get()) {
            throw new IllegalStateException("the client was connected already");
        }
        this.handler = handler;
        String where = options.host() + ":" + options.port();
        int timeout = (int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis());
        RmiClientSocketFactory sockets = RmiClientSocketFactory.client(options.host(), options.port(), timeout,
                options.tls());
        // What the agent answers is read under the process-wide allow-list filter, also in a
        // program (an agent with a relay, an application) that did not set one itself.
        RmiFilters.installProcessWide(options.maxFrameBytes());
        try (RmiClientSocketFactory.Scope reading = sockets.reading()) {
            AgentRemote agent = fetchAgent(sockets, where, timeout);
            session = agent.open();
        } catch (RemoteException e) {
            throw new IOException("the RMI agent at " + where + " did not open a session: " + rootMessage(e), e);
        }
        Thread poller = new Thread(() -> pollLoop(session), "salgate-rmi-poll");
        poller.setDaemon(true);
        poller.start();
    }

    /**
     * Asks the agent's port for the agent's stub ({@link AgentConnection#BOOTSTRAP}) over a socket
     * of {@code sockets}, reading at most {@value #MAX_STUB_BYTES} bytes until the agent closes,
     * all within {@code timeoutMillis}, under {@link RmiFilters#agentStub}. Call it {@link
     * RmiClientSocketFactory#reading reading} with {@code sockets}, whose place the stub's factory
     * must take: else the stub would reach its object some other way.
     */
    static AgentRemote fetchAgent(RmiClientSocketFactory sockets, String where, int timeoutMillis) throws IOException {
        String withTls = sockets.isTls() ? "" : " (an agent with TLS needs --tls, --tls-ca or --tls-pin)";
        Socket socket;
        try {
            socket = sockets.createSocket(null, 0); // where the client dialled
        } catch (IOException e) {
            throw new IOException("cannot reach an RMI agent at " + where + ": " + e.getMessage()
                    + "; check that the agent runs there with the rmi transport" + withTls, e);
        }
        byte[] answer;
        try (socket) {
            socket.getOutputStream().write(AgentConnection.BOOTSTRAP);
            socket.getOutputStream().flush();
            answer = readToEnd(socket, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        } catch (SocketTimeoutException e) {
            throw new IOException("no RMI agent answered at " + where + " within " + timeoutMillis
                    + " ms; check that the agent runs there with the rmi transport" + withTls, e);
        } catch (IOException e) {
            throw notAnAgent(where, "it broke off: " + e.getMessage(), withTls, e);
        }
        if (answer.length > MAX_STUB_BYTES) {
            throw notAnAgent(where, "it sent more than the " + MAX_STUB_BYTES + " bytes of an agent's stub", withTls,
                    null);
        }
        int resolved = sockets.resolved();
        Object agent;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(answer))) {
            in.setObjectInputFilter(RmiFilters.agentStub(MAX_STUB_BYTES));
            agent = in.readObject();
        } catch (InvalidClassException e) {
            throw new IOException("the server at " + where + " answered with objects outside the deserialization"
                    + " allow-list (" + e.getMessage() + "); it is not a salgate agent", e);
        } catch (IOException | ClassNotFoundException e) {
            agent = null;
        }
        if (!(agent instanceof AgentRemote) || sockets.resolved() == resolved) {
            throw notAnAgent(where, "it did not answer with one", withTls, null);
        }
        return (AgentRemote) agent;
    }

    private static IOException notAnAgent(String where, String why, String withTls, Throwable cause) {
        return new IOException("the server at " + where + " is not a salgate RMI agent (" + why + "); check which"
                + " transport the agent uses" + withTls, cause);
    }

    /** What {@code socket} brings until its end, by {@code deadline}; past {@link #MAX_STUB_BYTES}, that much and one more. */
    private static byte[] readToEnd(Socket socket, long deadline) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        byte[] buffer = new byte[1024];
        for (int n = 0; n >= 0; n = socket.getInputStream().read(buffer)) {
            answer.write(buffer, 0, n);
            if (answer.size() > MAX_STUB_BYTES) {
                break;
            }
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw new SocketTimeoutException();
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
        }
        return answer.toByteArray();
    }

    /**
     * Keeps one poll under way and hands on what it brings, before it polls again (which tells the
     * agent the batch was taken), until the session ends: then closes, holding the turn, so that an
     * answer a call carries back meanwhile is handed on first.
     */
    private void pollLoop(SessionRemote s) {
        while (!closing.get()) {
            byte[][] frames;
            try {
                frames = s.poll();
            } catch (RemoteException e) {
                handingOn(() -> shutDown(new IOException("the agent ended the session: " + rootMessage(e), e), false));
                return;
            }
            handingOn(() -> {
                if (frames == null) {
                    shutDown(null, false);
                } else {
                    for (byte[] frame : frames) {
                        handOn(frame);
                    }
                }
            });
        }
    }

    @Override
    public void send(Message message) throws IOException {
        SessionRemote s = session;
        if (s == null || closing.get()) {
            throw new IOException("the connection is closed");
        }
        byte[] frame = codec.encode(message);
        // Not while this thread hands frames on (a handler that sends), and not ahead of a poll's frames waiting.
        boolean carry = !turn.isHeldByCurrentThread() && !turn.hasQueuedThreads() && turn.tryLock();
        try {
            byte[] answer = s.call(frame, carry);
            if (answer == null || answer.length > 0) {
                handOn(carry ? answer : null);
            }
        } catch (RemoteException e) {
            IOException failure = new IOException("the RMI call to the agent failed: " + rootMessage(e), e);
            shutDown(failure, false);
            throw failure;
        } finally {
            if (carry) {
                turn.unlock();
            }
        }
    }

    @Override
    public boolean isOpen() {
        return session != null && !closing.get();
    }

    @Override
    public void close() {
        shutDown(null, true);
    }

    /** Closes once: tells the agent if asked, reports {@code cause} after frames being handed on. */
    private void shutDown(Throwable cause, boolean tellAgent) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        SessionRemote s = session;
        if (tellAgent && s != null) {
            try {
                s.leave();
            } catch (RemoteException e) {
                LOG.debug("could not tell the agent that the session closed", e);
            }
        }
        if (s == null) {
            return; // never connected: no handler to tell
        }
        if (cause != null) {
            LOG.debug("RMI client closed: {}", cause.toString());
        }
        Runnable report = () -> handingOn(() -> HandlerCalls.accept(handler::closed, cause, "closing", this));
        if (turn.tryLock()) {
            try {
                report.run();
            } finally {
                turn.unlock();
            }
        } else { // the poller is handing frames on: report once it is done, without holding up this thread
            Thread reporter = new Thread(report, "salgate-rmi-closed");
            reporter.setDaemon(true);
            reporter.start();
        }
    }

    /** Runs {@code delivery} holding the turn, so that what it hands on keeps its place in order. */
    private void handingOn(Runnable delivery) {
        turn.lock();
        try {
            delivery.run();
        } finally {
            turn.unlock();
        }
    }

    /**
     * Hands a frame to the handler, holding the turn, unless the client closed. Answers and polled
     * frames are read under the process-wide filter, whose array bound may be another transport's.
     */
    private void handOn(byte[] frame) {
        if (closing.get()) {
            return;
        }
        if (frame == null) {
            shutDown(new IOException("the agent sent a malformed answer or batch"), true);
        } else if (frame.length > options.maxFrameBytes()) {
            shutDown(new Framing.FrameTooLargeException(frame.length, options.maxFrameBytes()), true);
        } else {
            try {
                handler.messageReceived(codec.decode(frame, 0, frame.length));
            } catch (CodecException e) {
                shutDown(e, true);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on a message", e);
            }
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }
}
