package org.salgate.transport.rmi;

import java.io.EOFException;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.StreamCorruptedException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.rmi.ConnectIOException;
import java.rmi.NoSuchObjectException;
import java.rmi.NotBoundException;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.server.UnicastRemoteObject;
import java.rmi.server.Unreferenced;
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
 * An RMI client: looks the agent up in its registry, checks that the object leads to that registry's
 * host and port ({@link StubEndpoint#requireAgentAt}), exports a callback for the agent's pushes and
 * opens a session. {@link #send} is a remote call; one at a time may carry its answer back, handed
 * on on the caller's thread before any later push. Pushes are handed on on their own thread.
 */
final class RmiTransportClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(RmiTransportClient.class);

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final Callback callback = new Callback();
    private volatile SessionRemote session;
    private volatile boolean connected;
    private ClientHandler handler;
    /**
     * Held by whoever hands frames to the handler: a push, or the one call that may carry its answer
     * back, from before the call. So frames are handed on in the order the agent sent them.
     */
    private final ReentrantLock turn = new ReentrantLock();
    /** Guards {@link #closedReport}, the close's report, held back until the turn is free. */
    private final Object delivery = new Object();
    private Runnable closedReport;

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
        boolean tls = options.tls() != null;
        RmiTls.Binding binding = new RmiTls.Binding(options.tls(), options.host());
        // What the registry and the agent answer is read under the process-wide allow-list filter,
        // also in a program (an agent with a relay, an application) that did not set one itself.
        ProcessSerialFilter.install(options.maxFrameBytes());
        AgentRemote agent = lookUp(where, binding);
        StubEndpoint.requireAgentAt(agent, options.host(), options.port(), tls);
        InetAddress callbackHost = callbackHost();
        CallbackRemote stub;
        try {
            RmiClientSocketFactory callbackSockets = RmiClientSocketFactory.shared(callbackHost.getHostAddress(),
                    RmiTransportServer.CONNECT_TIMEOUT_MILLIS);
            stub = (CallbackRemote) UnicastRemoteObject.exportObject(callback, 0,
                    tls ? callbackSockets.withTls(RmiTls.callbackPin()) : callbackSockets,
                    RmiServerSocketFactory.shared(callbackHost, tls ? RmiTls.callbackServer() : null),
                    RmiFilters.pushes(options.maxFrameBytes(), RmiSession.MAX_BATCH_FRAMES, this::oversize));
        } catch (RemoteException e) {
            throw new IOException("cannot export the callback object on " + callbackHost.getHostAddress() + ": "
                    + rootMessage(e), e);
        }
        try (RmiTls.Scope bound = RmiTls.bind(binding)) {
            session = agent.open(stub);
        } catch (RemoteException e) {
            unexportCallback();
            throw new IOException("the RMI agent at " + where + " did not open a session: " + rootMessage(e), e);
        }
        connected = true;
    }

    /** Looks the agent up in the registry, reads bounded by the connect timeout; the stub is reached as dialled. */
    private AgentRemote lookUp(String where, RmiTls.Binding binding) throws IOException {
        int timeout = (int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis());
        boolean tls = binding.config() != null;
        try (RmiTls.Scope bound = RmiTls.bind(binding)) {
            return (AgentRemote) LocateRegistry.getRegistry(options.host(), options.port(),
                    RmiClientSocketFactory.lookup(binding, timeout)).lookup(RmiTransportProvider.BINDING_NAME);
        } catch (NotBoundException | ClassCastException e) {
            throw new IOException("the RMI registry at " + where + " holds no salgate agent; check the port", e);
        } catch (RemoteException e) {
            if (cause(e, InvalidClassException.class) != null) {
                throw new IOException("the server at " + where + " answered the lookup with objects outside the"
                        + " deserialization allow-list (" + rootMessage(e) + "); it is not a salgate agent", e);
            }
            RmiClientSocketFactory.TlsFailure refused = cause(e, RmiClientSocketFactory.TlsFailure.class);
            if (refused != null) {
                throw new IOException(refused.getMessage(), e);
            }
            if (cause(e, SocketTimeoutException.class) != null) {
                throw new IOException("no RMI agent answered at " + where + " within " + timeout
                        + " ms; check that the agent runs there with the rmi transport", e);
            }
            String withTls = tls ? "" : " (an agent with TLS needs --tls, --tls-ca or --tls-pin)";
            if (e instanceof ConnectIOException || cause(e, EOFException.class) != null
                    || cause(e, StreamCorruptedException.class) != null) {
                throw new IOException("the server at " + where + " is not an RMI agent (it broke off the RMI"
                        + " handshake); check which transport the agent uses" + withTls, e);
            }
            throw new IOException("cannot reach an RMI agent at " + where + ": " + rootMessage(e)
                    + "; check that the agent runs there with the rmi transport" + withTls, e);
        }
    }

    /** {@code e} or its first cause of {@code type}, or null. */
    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private InetAddress callbackHost() throws IOException {
        String configured = options.properties().get(RmiTransportProvider.CALLBACK_HOST);
        if (configured != null) {
            return InetAddress.getByName(configured);
        }
        InetAddress agent = InetAddress.getByName(options.host());
        if (agent.isLoopbackAddress()) {
            return agent;
        }
        // A connected datagram socket sends nothing; it only asks the OS which local address routes there.
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(agent, options.port()));
            InetAddress local = probe.getLocalAddress();
            if (local != null && !local.isAnyLocalAddress()) {
                return local;
            }
        }
        return InetAddress.getLocalHost();
    }

    @Override
    public void send(Message message) throws IOException {
        SessionRemote s = session;
        if (s == null || closing.get()) {
            throw new IOException("the connection is closed");
        }
        byte[] frame = codec.encode(message);
        // Not while this thread hands frames on (a handler that sends), and not ahead of a waiting push.
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
                endTurn();
            }
        }
    }

    @Override
    public boolean isOpen() {
        return connected && !closing.get();
    }

    @Override
    public void close() {
        shutDown(null, true);
    }

    /** Closes once: tells the agent if asked, withdraws the callback, reports {@code cause} once the turn is free. */
    private void shutDown(Throwable cause, boolean tellAgent) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        SessionRemote s = session;
        if (tellAgent && s != null) {
            try {
                s.close();
            } catch (RemoteException e) {
                LOG.debug("could not tell the agent that the session closed", e);
            }
        }
        unexportCallback();
        if (s == null) {
            return; // never connected: no handler to tell
        }
        if (cause != null) {
            LOG.debug("RMI client closed: {}", cause.toString());
        }
        Runnable report = () -> HandlerCalls.accept(handler::closed, cause, "closing", this);
        synchronized (delivery) {
            if (turn.isLocked()) {
                closedReport = report;
                return;
            }
        }
        report.run();
    }

    /** Gives up the turn; the last holder reports a close that came meanwhile. */
    private void endTurn() {
        Runnable report = null;
        synchronized (delivery) {
            turn.unlock();
            if (!turn.isLocked()) {
                report = closedReport;
                closedReport = null;
            }
        }
        if (report != null) {
            report.run();
        }
    }

    private void unexportCallback() {
        try {
            UnicastRemoteObject.unexportObject(callback, true);
        } catch (NoSuchObjectException e) {
            // not exported
        }
    }

    /** Hands a frame to the handler, holding the turn, unless the client closed. */
    private void handOn(byte[] frame) {
        if (closing.get()) {
            return;
        }
        if (frame == null) {
            shutDown(new IOException("the agent sent a malformed answer or batch"), true);
        } else if (frame.length > options.maxFrameBytes()) {
            oversize(frame.length); // a push's filter refuses it first; an answer is read under the process's
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

    private void oversize(long length) {
        shutDown(new Framing.FrameTooLargeException(length, options.maxFrameBytes()), true);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }

    /** The object the agent pushes to. */
    private final class Callback implements CallbackRemote, Unreferenced {

        @Override
        public void push(byte[][] frames) {
            turn.lock();
            try {
                for (byte[] frame : frames == null ? new byte[1][] : frames) {
                    handOn(frame);
                }
            } finally {
                endTurn();
            }
        }

        /** After the answer a call carries back, which the agent sent first. */
        @Override
        public void sessionClosed(String reason) {
            turn.lock();
            try {
                shutDown(reason == null || reason.isEmpty() ? null : new IOException(reason), false);
            } finally {
                endTurn();
            }
        }

        @Override
        public void unreferenced() {
            if (connected && !closing.get()) {
                shutDown(new IOException("the agent went away (its RMI lease ran out)"), false);
            }
        }
    }
}
