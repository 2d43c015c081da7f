package org.salgate.transport.rmi;

import java.io.EOFException;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.StreamCorruptedException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.rmi.ConnectIOException;
import java.rmi.NoSuchObjectException;
import java.rmi.NotBoundException;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.rmi.server.Unreferenced;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.TransportClient;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An RMI client: looks the agent up in its registry, checks that the object it got leads to that
 * registry's host and port ({@link AgentStubCheck}), exports a callback for pushed frames and
 * opens a session. {@link #send} is a blocking remote call; when the agent answers in time, the
 * answer comes back as its return value. Every frame is handed to the {@link ClientHandler} in
 * the agent's order (see {@link InOrderDelivery}).
 */
final class RmiTransportClient implements TransportClient {

    private static final Logger LOG = LoggerFactory.getLogger(RmiTransportClient.class);

    private final ClientOptions options;
    private final ConnectionCodec codec;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final InOrderDelivery delivery = new InOrderDelivery(this::handOn, this::protocolError);
    private final Callback callback = new Callback();
    private volatile SessionRemote session;
    private volatile boolean connected;
    private ClientHandler handler;

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
        boolean tls = options.tls() != null;
        RmiTls.Binding binding = new RmiTls.Binding(options.tls(), options.host());
        // What the registry and the agent answer is read under the process-wide allow-list filter,
        // also in a program (an agent with a relay, an application) that did not set one itself.
        ProcessSerialFilter.install(options.maxFrameBytes());
        AgentRemote agent = lookUp(where, timeout, binding);
        AgentStubCheck.requireAgentAt(agent, options.host(), options.port(), tls);
        InetAddress callbackHost = callbackHost();
        CallbackRemote stub;
        try {
            RmiClientSocketFactory callbackSockets = RmiClientSocketFactory.shared(callbackHost.getHostAddress(),
                    RmiTransportServer.CONNECT_TIMEOUT_MILLIS);
            if (tls) {
                callbackSockets = callbackSockets.withTls(RmiTls.callbackPin());
            }
            stub = (CallbackRemote) UnicastRemoteObject.exportObject(callback, 0, callbackSockets,
                    RmiServerSocketFactory.shared(callbackHost, tls ? RmiTls.callbackServer() : null),
                    RmiFilters.pushes(options.maxFrameBytes(), RmiSession.MAX_BATCH_FRAMES, this::oversize));
        } catch (RemoteException e) {
            throw new IOException("cannot export the callback object on " + callbackHost.getHostAddress() + ": "
                    + rootMessage(e), e);
        }
        try {
            try (RmiTls.Scope bound = RmiTls.bind(binding)) {
                session = agent.open(stub);
            }
        } catch (RemoteException e) {
            unexportCallback();
            throw new IOException("the RMI agent at " + where + " did not open a session: " + rootMessage(e), e);
        }
        connected = true;
    }

    /**
     * Looks the agent up in the registry at the configured address within the connect timeout.
     * RMI's own handshake waits up to a minute for a server that accepts and says nothing, so the
     * lookup runs on its own thread and, past the timeout, the sockets it opened are closed. The
     * stub it returns is bound to {@code binding}: it is reached as the client dialled.
     */
    private AgentRemote lookUp(String where, int timeoutMillis, RmiTls.Binding binding) throws IOException {
        boolean tls = binding.config() != null;
        RmiClientSocketFactory registrySockets = RmiClientSocketFactory.unique(null, timeoutMillis);
        if (tls) {
            registrySockets = registrySockets.withTls(binding);
        }
        LookupSockets sockets = new LookupSockets(registrySockets);
        FutureTask<AgentRemote> lookup = new FutureTask<>(() -> {
            Registry registry = LocateRegistry.getRegistry(options.host(), options.port(), sockets);
            try (RmiTls.Scope bound = RmiTls.bind(binding)) {
                return (AgentRemote) registry.lookup(RmiTransportProvider.BINDING_NAME);
            }
        });
        Thread thread = new Thread(lookup, "salgate-rmi-lookup " + where);
        thread.setDaemon(true);
        thread.start();
        try {
            return lookup.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            sockets.closeAll();
            throw new IOException("no RMI agent answered at " + where + " within " + timeoutMillis
                    + " ms; check that the agent runs there with the rmi transport", e);
        } catch (InterruptedException e) {
            sockets.closeAll();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while looking up the RMI agent at " + where, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof NotBoundException || cause instanceof ClassCastException) {
                throw new IOException("the RMI registry at " + where + " holds no salgate agent; check the port", cause);
            }
            if (hasCause(cause, InvalidClassException.class)) {
                throw new IOException("the server at " + where + " answered the lookup with objects outside the"
                        + " deserialization allow-list (" + rootMessage(cause) + "); it is not a salgate agent", cause);
            }
            for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof RmiClientSocketFactory.TlsFailure refused) {
                    throw new IOException(refused.getMessage(), cause);
                }
            }
            if (cause instanceof ConnectIOException || hasCause(cause, EOFException.class)
                    || hasCause(cause, StreamCorruptedException.class)) {
                throw new IOException("the server at " + where + " is not an RMI agent (it broke off the RMI"
                        + " handshake); check which transport the agent uses"
                        + (tls ? "" : ", and whether it runs with TLS (then connect with --tls, --tls-ca or --tls-pin)"),
                        cause);
            }
            if (cause instanceof RemoteException) {
                throw new IOException("cannot reach an RMI agent at " + where + ": " + rootMessage(cause)
                        + "; check that the agent runs there with the rmi transport"
                        + (tls ? "" : " (an agent with TLS needs --tls, --tls-ca or --tls-pin)"), cause);
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException("cannot look up the RMI agent at " + where + ": " + rootMessage(cause), cause);
        }
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** The registry lookup's sockets (made by {@link RmiClientSocketFactory}), kept to be closed on a timeout. */
    private static final class LookupSockets implements RMIClientSocketFactory {
        private final RmiClientSocketFactory factory;
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private volatile boolean closed;

        LookupSockets(RmiClientSocketFactory factory) {
            this.factory = factory;
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            Socket socket = factory.createSocket(host, port);
            sockets.add(socket);
            if (closed) {
                socket.close();
            }
            return socket;
        }

        void closeAll() {
            closed = true;
            for (Socket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing to unblock the lookup; nothing else to do
                }
            }
        }
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
        byte[] reply;
        try {
            reply = s.call(frame);
        } catch (RemoteException e) {
            IOException failure = new IOException("the RMI call to the agent failed: " + rootMessage(e), e);
            shutDown(failure, false);
            throw failure;
        }
        if (reply == null || reply.length == 0) {
            return; // the answer, if any, is pushed
        }
        if (reply.length < Long.BYTES || reply.length - Long.BYTES > options.maxFrameBytes()) {
            Exception failure = reply.length < Long.BYTES
                    ? new IOException("the agent returned a malformed answer of " + reply.length + " bytes")
                    : new Framing.FrameTooLargeException(reply.length - Long.BYTES, options.maxFrameBytes());
            shutDown(failure, true);
            throw new IOException(failure.getMessage() + "; the connection is closed", failure);
        }
        long sequence = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            sequence = (sequence << 8) | (reply[i] & 0xFF);
        }
        delivery.arrive(new long[] {sequence}, new InOrderDelivery.Item[] {InOrderDelivery.Item.frame(reply, Long.BYTES)},
                false);
    }

    @Override
    public boolean isOpen() {
        return connected && !closing.get();
    }

    @Override
    public void close() {
        shutDown(null, true);
    }

    /**
     * Closes once: tells the agent when it may still listen, withdraws the callback and reports
     * {@code cause} to the handler after any frame being handed on.
     */
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
        delivery.close(() -> {
            try {
                handler.closed(cause);
            } catch (RuntimeException e) {
                LOG.warn("the client handler failed on close", e);
            }
        });
    }

    private void unexportCallback() {
        try {
            UnicastRemoteObject.unexportObject(callback, true);
        } catch (NoSuchObjectException e) {
            // not exported
        }
    }

    private void handOn(InOrderDelivery.Item item) {
        if (item.bytes() == null) {
            String reason = item.endReason();
            shutDown(reason == null || reason.isEmpty() ? null : new IOException(reason), false);
            return;
        }
        Message message;
        try {
            message = codec.decode(item.bytes(), item.offset(), item.bytes().length - item.offset());
        } catch (CodecException e) {
            shutDown(e, true);
            return;
        }
        try {
            handler.messageReceived(message);
        } catch (RuntimeException e) {
            LOG.warn("the client handler failed on a message", e);
        }
    }

    private void protocolError(String error) {
        shutDown(new IOException(error), true);
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
        public void push(long[] sequences, byte[][] frames) {
            if (sequences == null || frames == null || sequences.length != frames.length || frames.length == 0) {
                protocolError("the agent pushed a malformed batch");
                return;
            }
            InOrderDelivery.Item[] items = new InOrderDelivery.Item[frames.length];
            for (int i = 0; i < frames.length; i++) {
                if (frames[i] == null) {
                    protocolError("the agent pushed a malformed batch");
                    return;
                }
                items[i] = InOrderDelivery.Item.frame(frames[i], 0);
            }
            delivery.arrive(sequences, items, true);
        }

        @Override
        public void sessionClosed(long sequence, String reason) {
            InOrderDelivery.Item end = InOrderDelivery.Item.end(reason);
            if (sequence < 0) {
                handOn(end);
            } else {
                delivery.arrive(new long[] {sequence}, new InOrderDelivery.Item[] {end}, false);
            }
        }

        @Override
        public void unreferenced() {
            if (connected && !closing.get()) {
                shutDown(new IOException("the agent went away (its RMI lease on this client ran out)"), false);
            }
        }
    }
}
