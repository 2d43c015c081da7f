package org.salgate.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * The life of a {@link TransportServer} that starts once and closes once: a second start is an
 * error, the address is known from the start on, and a close before the start or after an earlier
 * close does nothing. A transport's server says only how it binds.
 */
public abstract class SingleUseServer implements TransportServer {

    /** What a started server holds: the address it listens on, and how it stops. */
    protected record Bound(InetSocketAddress address, Runnable stop) {
        public Bound {
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(stop, "stop");
        }
    }

    private Bound bound;
    private boolean started;
    private boolean closed;

    /** Binds and starts serving {@code handler}; called once, by {@link #start}. */
    protected abstract Bound bind(ServerHandler handler) throws IOException;

    @Override
    public final synchronized void start(ServerHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (started) {
            throw new IllegalStateException("this server was started already; create a new one to start again");
        }
        started = true;
        bound = bind(handler);
    }

    @Override
    public final synchronized InetSocketAddress localAddress() {
        if (bound == null) {
            throw new IllegalStateException("the server is not started");
        }
        return bound.address();
    }

    @Override
    public final synchronized void close() {
        if (!closed && bound != null) {
            bound.stop().run();
        }
        closed = true;
    }

    /** Whether every one of the named classes can be loaded by {@code owner}'s loader: a provider's {@link TransportProvider#isAvailable}. */
    public static boolean classesPresent(Class<?> owner, String... classNames) {
        try {
            for (String name : classNames) {
                Class.forName(name, false, owner.getClassLoader());
            }
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
