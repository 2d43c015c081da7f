package org.salgate.transport.rmi;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.rmi.NoSuchObjectException;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RemoteServer;
import java.rmi.server.ServerNotActiveException;
import java.rmi.server.UnicastRemoteObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;
import org.salgate.transport.MemoryBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An RMI agent endpoint: its own registry on the configured port, with the agent object bound in
 * it and exported, like every session object, on that same port. Sockets come from factories
 * bound to the configured host, so nothing depends on JVM-wide RMI properties. The registry serves
 * lookups only (see {@link RegistryGuard}), and a connection that sends nothing for the hello
 * timeout ({@link ServerOptions.Limits#helloTimeout()}) is closed, as is one idle that long
 * between calls, which its client opens again when it needs one.
 */
final class RmiTransportServer implements TransportServer {

    private static final Logger LOG = LoggerFactory.getLogger(RmiTransportServer.class);

    /** How long closing sessions may take to push what they hold, then how long forced ones may take. */
    static final long CLOSE_GRACE_MILLIS = 2_000;
    /** Connect timeout of the sockets clients open to this agent. */
    static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    /** The JDK's property for how long RMI keeps an idle connection thread (its default: a minute). */
    static final String CONNECTION_THREAD_KEEP_ALIVE = "sun.rmi.transport.tcp.threadKeepAliveTime";
    static final long CONNECTION_THREAD_KEEP_ALIVE_MILLIS = 5_000;

    private final ServerOptions options;
    private final long callWaitMillis;
    private final AtomicLong nextSessionId = new AtomicLong(1);
    private final Map<Long, RmiSession> sessions = new ConcurrentHashMap<>();
    private final Object lifecycle = new Object();
    private final MemoryBudget budget;
    private ServerHandler handler;
    private RmiServerSocketFactory serverSockets;
    private RmiClientSocketFactory clientSockets;
    private Registry registry;
    private AgentEndpoint agent;
    private ExecutorService closer;
    private InetSocketAddress localAddress;
    private volatile boolean closed;

    RmiTransportServer(ServerOptions options) {
        this.options = options;
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
        this.callWaitMillis = RmiTransportProvider.longProperty(options.properties(), RmiTransportProvider.CALL_WAIT_MILLIS,
                RmiTransportProvider.DEFAULT_CALL_WAIT_MILLIS, 1);
    }

    /** What the sessions' outbound queues together may hold (frames reach RMI whole, so none is inbound). */
    MemoryBudget budget() {
        return budget;
    }

    ServerOptions options() {
        return options;
    }

    ServerHandler handler() {
        return handler;
    }

    long callWaitMillis() {
        return callWaitMillis;
    }

    ExecutorService closer() {
        return closer;
    }

    @Override
    public void start(ServerHandler handler) throws IOException {
        synchronized (lifecycle) {
            if (registry != null || closed) {
                throw new IllegalStateException("the server was started already");
            }
            this.handler = handler;
            // RMI's registry and distributed garbage collection read object streams that have no
            // filter of their own: the process-wide allow-list covers them (as the client does).
            ProcessSerialFilter.install(options.maxFrameBytes());
            InetAddress bindAddress = InetAddress.getByName(options.host());
            String advertised = options.properties().get(RmiTransportProvider.HOSTNAME);
            if (advertised == null && !bindAddress.isAnyLocalAddress()) {
                advertised = options.host();
            }
            shortenIdleThreadLife();
            serverSockets = RmiServerSocketFactory.forAgent(bindAddress, options.tls(), toString(),
                    readTimeoutMillis(options));
            clientSockets = RmiClientSocketFactory.unique(advertised, CONNECT_TIMEOUT_MILLIS);
            if (options.tls() != null) {
                clientSockets = clientSockets.withTls((String) null);
            }
            AtomicInteger closerThreads = new AtomicInteger();
            closer = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "salgate-rmi-close-" + closerThreads.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
            try {
                registry = LocateRegistry.createRegistry(options.port(), clientSockets, serverSockets);
            } catch (RemoteException e) {
                release();
                Throwable detail = e.getCause() != null ? e.getCause() : e;
                throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                        + detail.getMessage() + "; choose another host or port", e);
            }
            int port = options.port() != 0 ? options.port() : serverSockets.lastPort();
            try {
                agent = new AgentEndpoint();
                AgentRemote stub = (AgentRemote) UnicastRemoteObject.exportObject(agent, port, clientSockets,
                        serverSockets, RmiFilters.agent());
                registry.rebind(RmiTransportProvider.BINDING_NAME, stub);
            } catch (RemoteException e) {
                release();
                throw new IOException("cannot export the RMI agent on port " + port + ": " + e.getMessage(), e);
            }
            localAddress = new InetSocketAddress(bindAddress, port);
        }
    }

    /** The longest a read on the agent's connections may wait: the hello timeout, which RMI's own (2 h) far exceeds. */
    static int readTimeoutMillis(ServerOptions options) {
        long millis = options.limits().helloTimeout().toMillis();
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, millis));
    }

    /** How many calls that would have changed this agent's registry were refused. */
    long refusedRegistryCalls() {
        return serverSockets == null ? 0 : serverSockets.refusedRegistryCalls();
    }

    /**
     * RMI keeps the thread of a connection that ended for a minute, for a connection to come; after
     * a burst of peers that many threads would stay. Unless the operator set the property, they end
     * after {@value #CONNECTION_THREAD_KEEP_ALIVE_MILLIS} ms. RMI reads it once, when it first starts
     * in the process, which is here in an agent.
     */
    private static void shortenIdleThreadLife() {
        if (System.getProperty(CONNECTION_THREAD_KEEP_ALIVE) == null) {
            System.setProperty(CONNECTION_THREAD_KEEP_ALIVE, Long.toString(CONNECTION_THREAD_KEEP_ALIVE_MILLIS));
        }
    }

    private SessionRemote open(CallbackRemote callback) throws RemoteException {
        if (closed) {
            throw new RemoteException("the agent is stopping; try again once it is back");
        }
        if (callback == null) {
            throw new RemoteException("a callback object is required to open a session");
        }
        String client;
        try {
            client = RemoteServer.getClientHost();
        } catch (ServerNotActiveException e) {
            client = "local";
        }
        checkCallback(callback, client);
        RmiSession session = new RmiSession(nextSessionId.getAndIncrement(), client, callback, this);
        SessionRemote stub = (SessionRemote) UnicastRemoteObject.exportObject(session.endpoint(),
                localAddress.getPort(), clientSockets, serverSockets,
                RmiFilters.frames(options.maxFrameBytes(), session::oversize));
        sessions.put(session.id(), session);
        session.start();
        if (closed) {
            session.abort(null, false);
            throw new RemoteException("the agent is stopping; try again once it is back");
        }
        return stub;
    }

    /**
     * The agent dials a callback only at the address its session comes from, so a client cannot make
     * it connect anywhere else.
     */
    private static void checkCallback(CallbackRemote callback, String client) throws RemoteException {
        if ("local".equals(client)) {
            return;
        }
        String host;
        try {
            host = CallbackAddress.hostOf(callback);
        } catch (IOException e) {
            throw new RemoteException("the callback object is not usable: " + e.getMessage());
        }
        if (!CallbackAddress.sameAddress(host, client)) {
            LOG.warn("refused a session from {} whose callback names {}", client, host);
            throw new RemoteException("the callback must be at the address this session comes from (" + client
                    + "), not " + host + "; export it on that address");
        }
    }

    void sessionFinished(RmiSession session) {
        sessions.remove(session.id());
        synchronized (sessions) {
            sessions.notifyAll();
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        synchronized (lifecycle) {
            if (localAddress == null) {
                throw new IllegalStateException("the server is not started");
            }
            return localAddress;
        }
    }

    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (registry == null) {
                return;
            }
        }
        unexport(agent);
        for (RmiSession session : sessions.values()) {
            session.close();
        }
        awaitSessions(CLOSE_GRACE_MILLIS);
        for (RmiSession session : sessions.values()) {
            session.abort(null, true);
        }
        awaitSessions(CLOSE_GRACE_MILLIS);
        if (!sessions.isEmpty()) {
            LOG.warn("{} RMI sessions did not close in time", sessions.size());
        }
        synchronized (lifecycle) {
            release();
        }
    }

    private void release() {
        unexport(agent);
        unexport(registry);
        serverSockets.closeAll();
        closer.shutdown();
    }

    private static void unexport(java.rmi.Remote remote) {
        if (remote == null) {
            return;
        }
        try {
            UnicastRemoteObject.unexportObject(remote, true);
        } catch (NoSuchObjectException e) {
            // not exported, or already unexported
        }
    }

    private void awaitSessions(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (sessions) {
            while (!sessions.isEmpty()) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return;
                }
                try {
                    sessions.wait(Math.min(left, 50));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    @Override
    public String toString() {
        return "RMI server " + options.host() + ":" + options.port();
    }

    /** The object bound in the registry. */
    private final class AgentEndpoint implements AgentRemote {
        @Override
        public SessionRemote open(CallbackRemote callback) throws RemoteException {
            return RmiTransportServer.this.open(callback);
        }
    }
}
