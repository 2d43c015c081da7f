package org.salgate.bench.restgrpc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 that counts the bytes each way: what a client's sockets send to the
 * server (up) and receive from it (down), TCP payload only, whatever protocol runs over it. It
 * copies bytes and looks at none of them. A byte is counted when the relay has read it and before
 * it passes it on, so once a call's response has reached the client, the call's bytes are counted.
 */
final class CountingProxy implements AutoCloseable {

    private static final int BUFFER = 64 * 1024;

    private final int target;
    private final ServerSocket listener;
    private final AtomicLong up = new AtomicLong();
    private final AtomicLong down = new AtomicLong();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Starts relaying a free local port to {@code 127.0.0.1:target}. */
    CountingProxy(int target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptLoop, "counting-proxy-" + target);
        accept.setDaemon(true);
        accept.start();
    }

    /** The port clients connect to instead of the server's. */
    int port() {
        return listener.getLocalPort();
    }

    /** Bytes sent by clients so far. */
    long up() {
        return up.get();
    }

    /** Bytes sent to clients so far. */
    long down() {
        return down.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target));
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                pump(client, server, up, "up");
                pump(server, client, down, "down");
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("counting proxy: " + e.getMessage());
                }
            }
        }
    }

    private void pump(Socket from, Socket to, AtomicLong counter, String name) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[BUFFER];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    counter.addAndGet(n);
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the other side closed; closing both ends below ends the other direction too
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "counting-proxy-" + name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        sockets.forEach(CountingProxy::closeQuietly);
    }
}
