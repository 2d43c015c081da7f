package org.salgate.bench.scale;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The live Java heap of another JVM on this machine: {@code jcmd <pid> GC.class_histogram} runs a
 * full collection in that JVM and lists what survived; its {@code Total} line gives the bytes. Unlike
 * the process's RSS, this counts what its objects hold, whatever heap pages they landed in.
 */
final class LiveHeap {

    private static final long TIMEOUT_SECONDS = 60;

    private LiveHeap() {}

    /**
     * The bytes of live objects in the JVM {@code pid}, after a full collection there.
     *
     * @throws IOException if jcmd cannot be run or its output has no total
     */
    static long bytes(long pid) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            throw new IOException("no jcmd in " + jcmd.getParent() + ": the live heap needs a JDK, not a JRE");
        }
        Process p = new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), "GC.class_histogram"))
                .redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("jcmd " + pid + " GC.class_histogram did not end in " + TIMEOUT_SECONDS + " s");
        }
        return total(out);
    }

    /** The bytes column of a class histogram's {@code Total} line. */
    static long total(String histogram) throws IOException {
        for (String line : histogram.split("\n")) {
            String[] cols = line.trim().split("\\s+");
            if (cols.length == 3 && cols[0].equals("Total")) {
                try {
                    return Long.parseLong(cols[2]);
                } catch (NumberFormatException e) {
                    break;
                }
            }
        }
        String head = histogram.length() > 300 ? histogram.substring(0, 300) + "..." : histogram;
        throw new IOException("jcmd's class histogram has no Total line: " + head.strip());
    }
}
