package org.salgate.plugin.onewire;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small owserver for the tests, on a loopback port: it answers NOP, READ, DIRALL (ENOENT for a
 * directory it does not hold) and PRESENCE from a map of paths to values, keeps connections when asked, and can lose a device or stop.
 * Its threads are named {@code fake-owserver}.
 */
final class FakeOwserver implements AutoCloseable {

    /** Path (such as /28.000028D70000/temperature) to the text owserver gives. */
    final Map<String, String> values = new ConcurrentHashMap<>();
    /** Uncached reads seen. */
    final AtomicInteger uncachedReads = new AtomicInteger();
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private ServerSocket server;
    private int port;

    FakeOwserver(Map<String, String> values) throws IOException {
        this.values.putAll(values);
        start();
    }

    int port() {
        return port;
    }

    /** Listens (again, on the same port once it listened). */
    synchronized void start() throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        server = s;
        port = s.getLocalPort();
        Thread t = new Thread(() -> accept(s), "fake-owserver");
        t.setDaemon(true);
        t.start();
    }

    /** Stops listening and drops every connection. */
    synchronized void stop() throws IOException {
        if (server != null) {
            server.close();
            server = null;
        }
        dropConnections();
    }

    /** Closes every connection, as owserver does with idle kept ones, and keeps listening. */
    void dropConnections() throws IOException {
        for (Socket c : connections) {
            c.close();
        }
        connections.clear();
    }

    /** Takes a device off the bus: its paths are gone until put back. */
    Map<String, String> unplug(String device) {
        Map<String, String> gone = new java.util.HashMap<>();
        values.keySet().removeIf(p -> {
            if (p.startsWith(device + "/")) {
                gone.put(p, values.get(p));
                return true;
            }
            return false;
        });
        return gone;
    }

    @Override
    public void close() throws IOException {
        stop();
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            try {
                Socket c = s.accept();
                if (s.isClosed()) {
                    // accepted by a thread still in accept() while stop() closed the socket: the
                    // kernel completed it, the fake has stopped listening all the same
                    c.close();
                    return;
                }
                connections.add(c);
                Thread t = new Thread(() -> serve(c), "fake-owserver-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket c) {
        try (c) {
            DataInputStream in = new DataInputStream(c.getInputStream());
            DataOutputStream out = new DataOutputStream(c.getOutputStream());
            while (true) {
                in.readInt();
                int length = in.readInt();
                int type = in.readInt();
                int flags = in.readInt();
                in.readInt();
                in.readInt();
                byte[] payload = new byte[Math.min(Math.max(length, 0), 4096)];
                in.readFully(payload);
                String path = new String(payload, StandardCharsets.UTF_8).replace("\0", "");
                boolean keep = (flags & Owserver.FLAG_PERSIST) != 0;
                answer(out, type, path, keep ? Owserver.FLAG_PERSIST : 0);
                if (!keep) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away, or the fake stopped
        } finally {
            connections.remove(c);
        }
    }

    private void answer(DataOutputStream out, int type, String path, int flags) throws IOException {
        if (path.startsWith("/uncached/")) {
            path = path.substring("/uncached".length());
            uncachedReads.incrementAndGet();
        }
        String p = path;
        switch (type) {
            case Owserver.NOP -> reply(out, 0, flags, new byte[0]);
            case Owserver.READ -> {
                String v = values.get(p);
                if (v == null) {
                    reply(out, -2, flags, new byte[0]);
                } else {
                    byte[] data = v.getBytes(StandardCharsets.UTF_8);
                    reply(out, data.length, flags, data);
                }
            }
            case Owserver.DIRALL -> {
                // the root lists the devices and owserver's own directories, a device its properties
                String prefix = p.equals("/") ? "" : p;
                List<String> entries = values.keySet().stream().filter(k -> k.startsWith(prefix + "/"))
                        .map(k -> prefix + k.substring(prefix.length(), k.indexOf('/', prefix.length() + 1) < 0
                                ? k.length() : k.indexOf('/', prefix.length() + 1)))
                        .distinct().sorted().toList();
                if (entries.isEmpty() && !prefix.isEmpty()) {
                    reply(out, -2, flags, new byte[0]);
                } else {
                    String list = String.join(",", entries) + (prefix.isEmpty() ? ",/settings,/system" : "");
                    reply(out, 0, flags, (list + "\0").getBytes(StandardCharsets.UTF_8));
                }
            }
            case Owserver.PRESENCE -> reply(out,
                    values.keySet().stream().anyMatch(k -> k.startsWith(p + "/") || k.equals(p)) ? 0 : -2, flags,
                    new byte[0]);
            default -> reply(out, -22, flags, new byte[0]);
        }
    }

    private static void reply(DataOutputStream out, int ret, int flags, byte[] data) throws IOException {
        out.writeInt(0);
        out.writeInt(data.length);
        out.writeInt(ret);
        out.writeInt(flags);
        out.writeInt(data.length);
        out.writeInt(0);
        out.write(data);
        out.flush();
    }
}
