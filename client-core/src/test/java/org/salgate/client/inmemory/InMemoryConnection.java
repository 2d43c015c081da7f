package org.salgate.client.inmemory;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.salgate.transport.Session;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;

/** Both ends of one in-memory connection; as a {@link Session} it is the agent's end. */
final class InMemoryConnection implements Session {

    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    private final InMemoryServer server;
    private final InMemoryClient client;
    private final ConnectionCodec serverCodec;
    private final ConnectionCodec clientCodec;
    private final ExecutorService toServer;
    private final ExecutorService toClient;
    private final AtomicBoolean open = new AtomicBoolean(true);

    InMemoryConnection(InMemoryServer server, InMemoryClient client, Codec serverCodec) {
        this.server = server;
        this.client = client;
        this.serverCodec = new ConnectionCodec(serverCodec);
        this.clientCodec = new ConnectionCodec(client.options().codec());
        this.toServer = Executors.newSingleThreadExecutor(daemon("inmemory-agent-" + id));
        this.toClient = Executors.newSingleThreadExecutor(daemon("inmemory-client-" + id));
    }

    void open() {
        deliver(toServer, () -> server.handler().sessionOpened(this));
    }

    void fromClient(Message message) throws IOException {
        byte[] bytes = clientCodec.encode(message);
        try {
            toServer.execute(() -> {
                try {
                    server.handler().messageReceived(this, serverCodec.decode(bytes));
                } catch (CodecException e) {
                    closeWith(e);
                }
            });
        } catch (RejectedExecutionException e) {
            throw new IOException("the in-memory connection is closed");
        }
    }

    @Override
    public void send(Message message) {
        if (!open.get()) {
            return;
        }
        byte[] bytes = serverCodec.encode(message);
        deliver(toClient, () -> {
            try {
                client.handler().messageReceived(clientCodec.decode(bytes));
            } catch (CodecException e) {
                closeWith(e);
            }
        });
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public String remoteAddress() {
        return "inmemory:" + id;
    }

    @Override
    public boolean isWritable() {
        return true;
    }

    @Override
    public void setWritabilityListener(Runnable listener) {}

    @Override
    public boolean isOpen() {
        return open.get();
    }

    @Override
    public void close() {
        closeWith(null);
    }

    private void closeWith(Throwable cause) {
        if (!open.compareAndSet(true, false)) {
            return;
        }
        server.forget(this);
        deliver(toServer, () -> server.handler().sessionClosed(this, cause));
        deliver(toClient, () -> client.handler().closed(cause));
        toServer.shutdown();
        toClient.shutdown();
    }

    /** Runs a delivery on one direction's thread; after the close, what still races in is dropped, as on a socket. */
    private static void deliver(ExecutorService direction, Runnable task) {
        try {
            direction.execute(task);
        } catch (RejectedExecutionException e) {
            // the connection closed
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
