package org.salgate.bench.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Reads one process's CPU time, resident memory and thread count from Linux {@code /proc}, from
 * outside the process: {@code /proc/<pid>/stat} (utime + stime, in clock ticks) and
 * {@code /proc/<pid>/status} (VmRSS and Threads).
 */
public final class ProcStat {

    /** A reading: cumulative CPU time of all the process's threads, its resident set and its thread count. */
    public record Reading(long wallNanos, long cpuNanos, long rssBytes, int threads) {}

    private static final long TICKS_PER_SECOND = clockTicks();

    private final long pid;
    private final Path stat;
    private final Path status;

    public ProcStat(long pid) {
        this.pid = pid;
        this.stat = Path.of("/proc", Long.toString(pid), "stat");
        this.status = Path.of("/proc", Long.toString(pid), "status");
    }

    /** Whether this machine has a Linux /proc to read. */
    public static boolean supported() {
        return Files.isReadable(Path.of("/proc/self/stat"));
    }

    public long pid() {
        return pid;
    }

    /**
     * Reads the process now.
     *
     * @throws IOException if the process is gone or /proc cannot be read
     */
    public Reading read() throws IOException {
        long wall = System.nanoTime();
        String s = Files.readString(stat, StandardCharsets.US_ASCII);
        // the command name (field 2) is in parentheses and may hold spaces: fields count from the last ')'
        String[] f = s.substring(s.lastIndexOf(')') + 2).trim().split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime (14) + stime (15)
        long rss = -1;
        int threads = -1;
        for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
            if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(firstField(line, 6)) * 1024;
            } else if (line.startsWith("Threads:")) {
                threads = Integer.parseInt(firstField(line, 8));
            }
        }
        if (rss < 0 || threads < 0) {
            throw new IOException("process " + pid + " has no VmRSS or Threads (a zombie?)");
        }
        return new Reading(wall, ticks * 1_000_000_000L / TICKS_PER_SECOND, rss, threads);
    }

    private static String firstField(String line, int from) {
        return line.substring(from).trim().split("\\s+")[0];
    }

    /** The kernel's USER_HZ, which /proc counts CPU time in: {@code getconf CLK_TCK}, else the usual 100. */
    public static long ticksPerSecond() {
        return TICKS_PER_SECOND;
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
                long t = Long.parseLong(out);
                if (t > 0) {
                    return t;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall through to the Linux default
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }
}
