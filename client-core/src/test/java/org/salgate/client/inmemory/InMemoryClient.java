package org.salgate.client.inmemory;

import java.io.IOException;
import java.net.ConnectException;

import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.TransportClient;
import org.salgate.wire.Message;

final class InMemoryClient implements TransportClient {

    private final ClientOptions options;
    private volatile ClientHandler handler;
    private volatile InMemoryConnection connection;

    InMemoryClient(ClientOptions options) {
        this.options = options;
    }

    ClientOptions options() {
        return options;
    }

    ClientHandler handler() {
        return handler;
    }

    @Override
    public void connect(ClientHandler handler) throws IOException {
        InMemoryServer server = InMemoryTransport.SERVERS.get(options.port());
        if (server == null) {
            throw new ConnectException("Connection refused");
        }
        this.handler = handler;
        this.connection = server.accept(this);
    }

    @Override
    public void send(Message message) throws IOException {
        InMemoryConnection c = connection;
        if (c == null || !c.isOpen()) {
            throw new IOException("the in-memory connection is closed");
        }
        c.fromClient(message);
    }

    @Override
    public boolean isOpen() {
        InMemoryConnection c = connection;
        return c != null && c.isOpen();
    }

    @Override
    public void close() {
        InMemoryConnection c = connection;
        if (c != null) {
            c.close();
        }
    }
}
