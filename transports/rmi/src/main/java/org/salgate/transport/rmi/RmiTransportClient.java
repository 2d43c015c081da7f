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
import java.rmi.NotBoundException;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.server.UnicastRemoteObject;
import java.rmi.server.Unreferenced;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.HandlerCalls;
import org.salgate.transport.TransportClient;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An RMI client: looks the agent up in its registry, checks that the object leads to that registry's
 * host and port ({@link StubEndpoint#requireAgentAt}), exports a callback for the agent's pushes and
 * opens a session. {@link #send} is a remote call; one at a time may carry a frame back, handed on
 * on the caller's thread before any later push. Pushes are handed on on their own thread.
 */
final class RmiTransportClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(RmiTransportClient.class);

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final Callback callback = new Callback();
    private volatile SessionRemote session;
    private ClientHandler handler;
    /**
     * Held by whoever hands frames to the handler: a push, or the one call that may carry a frame
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
        boolean tls = options.tls() != null;
        RmiClientSocketFactory.Binding binding = new RmiClientSocketFactory.Binding(options.tls(), options.host());
        // What the registry and the agent answer is read under the process-wide allow-list filter,
        // also in a program (an agent with a relay, an application) that did not set one itself.
        RmiFilters.installProcessWide(options.maxFrameBytes());
        AgentRemote agent = lookUp(where, binding);
        StubEndpoint.requireAgentAt(agent, options.host(), options.port(), tls);
        InetAddress callbackHost = callbackHost();
        CallbackRemote stub;
        try {
            RmiClientSocketFactory callbackSockets = RmiClientSocketFactory.shared(callbackHost.getHostAddress(),
                    RmiTransportServer.CONNECT_TIMEOUT_MILLIS);
            stub = (CallbackRemote) UnicastRemoteObject.exportObject(callback, 0,
                    tls ? callbackSockets.withTls(CallbackIdentity.PIN) : callbackSockets,
                    RmiServerSocketFactory.shared(callbackHost, tls ? CallbackIdentity.SERVER : null),
                    RmiFilters.pushes(options.maxFrameBytes(), RmiSession.MAX_BATCH_FRAMES, this::oversize));
        } catch (RemoteException e) {
            throw new IOException("cannot export the callback object on " + callbackHost.getHostAddress() + ": "
                    + rootMessage(e), e);
        }
        try (RmiClientSocketFactory.Scope bound = RmiClientSocketFactory.bind(binding)) {
            session = agent.open(stub);
        } catch (RemoteException e) {
            RmiTransportServer.unexport(callback);
            throw new IOException("the RMI agent at " + where + " did not open a session: " + rootMessage(e), e);
        }
    }

    /** Looks the agent up in the registry, reads bounded by the connect timeout; the stub is reached as dialled. */
    private AgentRemote lookUp(String where, RmiClientSocketFactory.Binding binding) throws IOException {
        int timeout = (int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis());
        boolean tls = binding.config() != null;
        try (RmiClientSocketFactory.Scope bound = RmiClientSocketFactory.bind(binding)) {
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

    /** Closes once: tells the agent if asked, withdraws the callback, reports {@code cause} after frames being handed on. */
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
        RmiTransportServer.unexport(callback);
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
        } else { // a push is handing frames on: report once it is done, without holding up this thread
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
     * Hands a frame to the handler, holding the turn, unless the client closed. A push's filter
     * bounds its frames; an answer is read under the process-wide filter, whose array bound may be
     * another transport's.
     */
    private void handOn(byte[] frame) {
        if (closing.get()) {
            return;
        }
        if (frame == null) {
            shutDown(new IOException("the agent sent a malformed answer or batch"), true);
        } else if (frame.length > options.maxFrameBytes()) {
            oversize(frame.length);
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

    /**
     * The TLS identity of this JVM's callback listeners: a self-signed certificate, valid for the
     * life of any client JVM, whose fingerprint the callback's stub carries (over the client's own
     * TLS connection) for the agent to pin.
     */
    static final class CallbackIdentity {
        private static final Certificates.KeyAndChain KEY = Certificates.selfSigned(List.of(), 3650);
        static final TlsConfig SERVER = TlsConfig.server(KEY);
        static final String PIN = Certificates.fingerprint(KEY.certificate());
    }

    /** The object the agent pushes to. */
    private final class Callback implements CallbackRemote, Unreferenced {

        @Override
        public void push(byte[][] frames) {
            handingOn(() -> {
                for (byte[] frame : frames == null ? new byte[1][] : frames) {
                    handOn(frame);
                }
            });
        }

        @Override
        public void sessionClosed(String reason) {
            handingOn(() -> shutDown(reason == null || reason.isEmpty() ? null : new IOException(reason), false));
        }

        @Override
        public void unreferenced() {
            if (isOpen()) {
                shutDown(new IOException("the agent went away (its RMI lease ran out)"), false);
            }
        }
    }
}
