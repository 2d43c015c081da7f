package org.salgate.transport.tck;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** How much TCP data the kernel may buffer for one connection, for bounds in backpressure tests. */
public final class KernelBuffers {

    /** Used where the kernel's limits cannot be read: Linux's default maxima (4 MiB + 6 MiB). */
    public static final long FALLBACK_BYTES = 10L << 20;

    private KernelBuffers() {}

    /**
     * The most a connection's send buffer and its peer's receive buffer may hold together: the
     * third field of {@code tcp_wmem} plus that of {@code tcp_rmem} on Linux, else {@link #FALLBACK_BYTES}.
     */
    public static long maxSendPlusReceiveBytes() {
        try {
            return maxOf(Path.of("/proc/sys/net/ipv4/tcp_wmem")) + maxOf(Path.of("/proc/sys/net/ipv4/tcp_rmem"));
        } catch (IOException | RuntimeException e) {
            return FALLBACK_BYTES;
        }
    }

    /** The last of the three numbers of a {@code tcp_[rw]mem} file (min, default, max). */
    private static long maxOf(Path file) throws IOException {
        // Read line-wise: on some kernels (and sandboxes) procfs reports a size that makes
        // Files.readString stop after the first bytes.
        try (BufferedReader reader = Files.newBufferedReader(file)) {
            String line = reader.readLine();
            String[] fields = line == null ? new String[0] : line.trim().split("\\s+");
            if (fields.length != 3) {
                throw new IOException(file + " does not hold three numbers: " + line);
            }
            return Long.parseLong(fields[2]);
        }
    }
}
