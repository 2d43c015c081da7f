package org.salgate.transport.rmi;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/** Reaching an agent's port as the client does, and a port that answers a bootstrap as a hostile or foreign server might. */
final class AgentPorts implements AutoCloseable {

    private final ServerSocket server;
    private final byte[] answer;
    private final AtomicInteger answered = new AtomicInteger();

    /** A port that reads a bootstrap's length of each connection, answers {@code answer} and closes. */
    AgentPorts(byte[] answer) throws IOException {
        this.server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        this.answer = answer;
        Thread acceptor = new Thread(this::acceptLoop, "fake-agent-port");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections answered so far. */
    int answered() {
        return answered.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                s.getInputStream().readNBytes(AgentConnection.BOOTSTRAP.length);
                s.getOutputStream().write(answer);
                s.getOutputStream().flush();
                answered.incrementAndGet();
            } catch (IOException e) {
                // closed, or the client gave up
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    /** A client's socket factory for the agent at 127.0.0.1:{@code port}, without TLS. */
    static RmiClientSocketFactory sockets(int port) {
        return RmiClientSocketFactory.client("127.0.0.1", port, 5_000, null);
    }

    /** The agent at 127.0.0.1:{@code port}, fetched as the client does, reached through {@code sockets}. */
    static AgentRemote agent(RmiClientSocketFactory sockets, int port) throws IOException {
        try (RmiClientSocketFactory.Scope reading = sockets.reading()) {
            return RmiTransportClient.fetchAgent(sockets, "127.0.0.1:" + port, 5_000);
        }
    }

    /** A session on the agent at 127.0.0.1:{@code port}, opened through the remote interface alone. */
    static SessionRemote openSession(int port) throws IOException {
        RmiClientSocketFactory sockets = sockets(port);
        AgentRemote agent = agent(sockets, port);
        try (RmiClientSocketFactory.Scope reading = sockets.reading()) {
            return agent.open();
        }
    }

    /** {@code o} as an object stream. */
    static byte[] objectStream(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    /** An object stream that declares a {@code long[declaredLength]} and ends there: a hundred bytes asking for gigabytes. */
    static byte[] hugeArray(int declaredLength) throws IOException {
        int realLength = 1000;
        byte[] full = objectStream(new long[realLength]);
        int lengthAt = full.length - 8 * realLength - 4;
        if (ByteBuffer.wrap(full).getInt(lengthAt) != realLength) {
            throw new IllegalStateException("the array's length is not where it was expected");
        }
        byte[] cut = Arrays.copyOf(full, lengthAt + 4);
        ByteBuffer.wrap(cut).putInt(lengthAt, declaredLength);
        return cut;
    }
}
