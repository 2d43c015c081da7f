package org.salgate.bench.devices;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** The programs of this machine a row of {@code bench devices} runs (owserver, socat). */
final class Commands {

    private Commands() {}

    /**
     * Null when {@code command} is on the PATH; else the problem to report: the row is not measured
     * and the Debian package to install.
     */
    static String missing(String row, String command, String debianPackage) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return null;
            }
        }
        return row + " not measured: " + command + " is not installed (Debian: apt-get install " + debianPackage + ")";
    }

    /** A loopback port free now. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
