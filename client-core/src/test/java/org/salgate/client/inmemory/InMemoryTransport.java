package org.salgate.client.inmemory;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * A transport inside one JVM, for tests: servers register under a made-up port, clients find them
 * by it. Every message goes through the connection codec both ways, and each direction is
 * delivered in order on its own thread, as a network transport would.
 */
public final class InMemoryTransport implements TransportProvider {

    public static final String NAME = "inmemory";

    static final ConcurrentMap<Integer, InMemoryServer> SERVERS = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_PORT = new AtomicInteger(40000);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "in-memory transport for tests";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new InMemoryServer(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new InMemoryClient(options);
    }

    /** A port no server uses. */
    public static int unusedPort() {
        return NEXT_PORT.incrementAndGet();
    }
}
