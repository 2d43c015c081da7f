package org.salgate.client.inmemory;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportServer;

final class InMemoryServer implements TransportServer {

    private final ServerOptions options;
    private final List<InMemoryConnection> connections = new CopyOnWriteArrayList<>();
    private volatile ServerHandler handler;
    private volatile int port;

    InMemoryServer(ServerOptions options) {
        this.options = options;
    }

    @Override
    public void start(ServerHandler handler) throws IOException {
        this.handler = handler;
        int p = options.port() == 0 ? InMemoryTransport.unusedPort() : options.port();
        if (InMemoryTransport.SERVERS.putIfAbsent(p, this) != null) {
            throw new BindException("in-memory port " + p + " is in use");
        }
        this.port = p;
    }

    InMemoryConnection accept(InMemoryClient client) {
        InMemoryConnection c = new InMemoryConnection(this, client, options.codec());
        connections.add(c);
        c.open();
        return c;
    }

    ServerHandler handler() {
        return handler;
    }

    void forget(InMemoryConnection c) {
        connections.remove(c);
    }

    @Override
    public InetSocketAddress localAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    @Override
    public void close() {
        InMemoryTransport.SERVERS.remove(port, this);
        for (InMemoryConnection c : connections) {
            c.close();
        }
    }
}
