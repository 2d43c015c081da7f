package org.salgate.bench.devices;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * The Modbus TCP devices the agent polls: one device per port on 127.0.0.1, each with holding
 * registers 0 to {@code registers - 1}, in one server that counts the requests its devices see.
 */
interface DeviceServer extends AutoCloseable {

    /** The port of each device, device 0 first. */
    List<Integer> ports();

    /** Requests the devices saw since the server started, every device together. */
    long requests() throws IOException;

    /** CPU time the server used so far in nanoseconds, or -1 when it runs in the bench's JVM (counted there). */
    long cpuNanos() throws IOException;

    /** What the server is, for the report. */
    String describe();

    @Override
    void close();

    /** Free loopback ports, found by binding and letting go (another process could take one meanwhile). */
    static List<Integer> freePorts(int n) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return held.stream().map(ServerSocket::getLocalPort).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find " + n + " free loopback ports: " + e.getMessage(), e);
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException e) {
                    // nothing held
                }
            }
        }
    }
}
