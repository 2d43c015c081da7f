package org.salgate.plugin.tck;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A network device that accepts connections and never answers: on loopback, at {@link #port()}.
 * For {@link AbstractDevicePluginConformanceTest#unansweringDevice()} of a plugin whose devices
 * are on the network. Its thread is named {@code tck-silent-server}.
 */
public final class SilentServer implements AutoCloseable {

    private final ServerSocket server;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    public SilentServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "tck-silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port it listens on. */
    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    public int accepted() {
        return accepted.size();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                accepted.add(server.accept()); // read nothing, answer nothing
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : accepted) {
            s.close();
        }
        try {
            acceptor.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
