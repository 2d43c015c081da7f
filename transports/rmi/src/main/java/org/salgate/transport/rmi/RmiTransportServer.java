package org.salgate.transport.rmi;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.rmi.NoSuchObjectException;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.server.RemoteServer;
import java.rmi.server.ServerNotActiveException;
import java.rmi.server.UnicastRemoteObject;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.OpenSessions;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An RMI agent: the agent and every session exported on the configured port through factories
 * bound to the configured host; the port hands the agent's stub to a client that asks for it
 * ({@link AgentConnection}), and there is no registry. A connection silent for the hello timeout is
 * closed (a client reopens one when it needs it), and so is a session whose client did not poll it
 * for as long.
 */
final class RmiTransportServer extends SingleUseServer {

    private static final Logger LOG = LoggerFactory.getLogger(RmiTransportServer.class);

    /** How long closing sessions may take to push what they hold, then how long forced ones may take. */
    static final long CLOSE_GRACE_MILLIS = 2_000;
    /** The JDK's property for how long RMI keeps an idle connection thread (its default: a minute). */
    static final String CONNECTION_THREAD_KEEP_ALIVE = "sun.rmi.transport.tcp.threadKeepAliveTime";

    private final ServerOptions options;
    /** What the sessions' outbound queues together may hold (frames reach RMI whole, so none is inbound). */
    private final MemoryBudget budget;
    private final AtomicLong nextSessionId = new AtomicLong(1);
    private final OpenSessions<RmiSession> sessions = new OpenSessions<>();
    private ServerHandler handler;
    private RmiServerSocketFactory serverSockets;
    private final RmiClientSocketFactory clientSockets = RmiClientSocketFactory.inStubs();
    private final AgentRemote agent = this::open;
    /** The port the agent and its sessions are exported on. */
    private volatile int port;
    private volatile boolean closed;

    RmiTransportServer(ServerOptions options) {
        this.options = options;
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
    }

    @Override
    protected Bound bind(ServerHandler handler) throws IOException {
        this.handler = handler;
        // RMI's distributed garbage collection reads object streams that have no filter of
        // their own: the process-wide allow-list covers them (as the client does).
        RmiFilters.installProcessWide(options.maxFrameBytes());
        // RMI keeps the thread of a connection that ended for a minute; after a burst of peers that
        // many would stay. RMI reads this once, when it first starts in the process: here in an agent.
        if (System.getProperty(CONNECTION_THREAD_KEEP_ALIVE) == null) {
            System.setProperty(CONNECTION_THREAD_KEEP_ALIVE, "5000");
        }
        InetAddress bindAddress = InetAddress.getByName(options.host());
        long helloMillis = options.limits().helloTimeout().toMillis();
        serverSockets = new RmiServerSocketFactory(bindAddress, options.tls(),
                (int) Math.max(1, Math.min(Integer.MAX_VALUE, helloMillis)));
        try {
            serverSockets.handOut(UnicastRemoteObject.exportObject(agent, options.port(), clientSockets,
                    serverSockets, RmiFilters.agent()));
        } catch (IOException e) {
            unexport(agent);
            serverSockets.closeAll();
            Throwable detail = e.getCause() != null ? e.getCause() : e;
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": "
                    + detail.getMessage() + "; choose another host or port", e);
        }
        port = serverSockets.lastPort();
        // closes the sessions whose clients stopped polling
        ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "salgate-rmi-watch-" + port);
            thread.setDaemon(true);
            return thread;
        });
        Duration absence = options.limits().helloTimeout();
        long period = Math.max(10, Math.min(1_000, helloMillis / 4));
        watch.scheduleWithFixedDelay(() -> sessions.all().forEach(s -> s.closeIfAbandoned(absence)),
                period, period, TimeUnit.MILLISECONDS);
        return new Bound(new InetSocketAddress(bindAddress, port), () -> stop(watch));
    }

    private SessionRemote open() throws RemoteException {
        if (closed) { // the agent stays exported while its sessions end
            throw new RemoteException("the agent is stopping; try again once it is back");
        }
        String client;
        try {
            client = RemoteServer.getClientHost();
        } catch (ServerNotActiveException e) {
            client = "local";
        }
        RmiSession session = new RmiSession(nextSessionId.getAndIncrement(), client, options, budget, handler,
                sessions);
        SessionRemote stub = (SessionRemote) UnicastRemoteObject.exportObject(session, port, clientSockets,
                serverSockets, RmiFilters.frames(options.maxFrameBytes(), session::abort));
        sessions.add(session);
        session.start();
        if (closed) { // stop() has closed the sessions it found: this one is not among them
            session.abort(null);
            throw new RemoteException("the agent is stopping; try again once it is back");
        }
        return stub;
    }

    /** Refuses new sessions, lets the open ones push what they hold, then stops listening. */
    private void stop(ScheduledExecutorService watch) {
        closed = true;
        int left = sessions.closeAll(CLOSE_GRACE_MILLIS, session -> session.abort(null));
        if (left > 0) {
            LOG.warn("{} RMI sessions did not close in time", left);
        }
        // Only now: RMI closes the listening socket (and with it, the connections) when the last
        // object on its port is withdrawn, and a session's last poll withdraws its session before
        // that poll's answer is written. With the agent still exported, that is never the session.
        unexport(agent);
        watch.shutdownNow();
        serverSockets.closeAll();
    }

    /** Withdraws {@code remote} (already withdrawn: nothing to do) and refuses the calls under way. */
    static void unexport(Remote remote) {
        try {
            UnicastRemoteObject.unexportObject(remote, true);
        } catch (NoSuchObjectException e) {
            // not exported, or already unexported
        }
    }

    @Override
    public String toString() {
        return "RMI server " + options.host() + ":" + options.port();
    }
}
