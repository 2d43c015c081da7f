package org.salgate.agent.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/** A transport without a network: tests open {@link FakeSession}s on its server directly. */
public final class FakeTransport implements TransportProvider {

    private volatile Server server;

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        server = new Server(options);
        return server;
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        throw new UnsupportedOperationException("the fake transport has no client");
    }

    /** The server created last. */
    public Server server() {
        return server;
    }

    /** A server that hands its handler to the test. */
    public static final class Server implements TransportServer {
        private final ServerOptions options;
        private final List<FakeSession> sessions = new CopyOnWriteArrayList<>();
        private volatile ServerHandler handler;
        private volatile boolean closed;

        Server(ServerOptions options) {
            this.options = options;
        }

        @Override
        public void start(ServerHandler h) throws IOException {
            this.handler = h;
        }

        public ServerOptions options() {
            return options;
        }

        public ServerHandler handler() {
            return handler;
        }

        public boolean isClosed() {
            return closed;
        }

        /** Opens a session whose client reads everything at once. */
        public FakeSession open() {
            return open(Integer.MAX_VALUE);
        }

        /** Opens a session that is unwritable once {@code capacity} stream frames wait unread. */
        public FakeSession open(int capacity) {
            FakeSession s = new FakeSession(handler, capacity);
            sessions.add(s);
            handler.sessionOpened(s);
            return s;
        }

        @Override
        public InetSocketAddress localAddress() {
            return new InetSocketAddress("127.0.0.1", options.port() == 0 ? 40000 : options.port());
        }

        @Override
        public void close() {
            closed = true;
            for (FakeSession s : sessions) {
                s.close();
            }
        }
    }
}
