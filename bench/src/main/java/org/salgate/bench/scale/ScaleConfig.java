package org.salgate.bench.scale;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@code bench scale} run.
 *
 * @param mode what the clients do
 * @param transports the transports, one agent each per cell
 * @param clientCounts the client counts (stream mode) or the one session count (idle mode)
 * @param clientProcesses the client processes per cell, or 0 for {@link #processesFor}'s default
 * @param duration how long the streams run once all have started (stream mode)
 * @param intervalMs each stream's interval (stream mode)
 * @param dummySensors the agent's dummy sensors; client i streams DUMMY_(i mod dummySensors)
 * @param connectRate connections per second, all processes together (a process pauses between two of its own)
 * @param warmup list calls from one client before anything is measured, on each fresh agent
 * @param listCalls the fresh client's measured list calls (idle mode)
 * @param listWarmupCalls the fresh client's list calls before those (idle mode)
 * @param settle the pause after the idle sessions are open, before the agent is measured with them (idle mode)
 * @param tls whether every connection is TLS: the agent serves a certificate made for the run, the clients pin it
 * @param out the run's folder
 * @param commandLine the command as typed, for the report
 */
public record ScaleConfig(ScaleMode mode, List<String> transports, List<Integer> clientCounts, int clientProcesses,
                          Duration duration, long intervalMs, int dummySensors, int connectRate, Duration warmup,
                          int listCalls, int listWarmupCalls, Duration settle, boolean tls, Path out,
                          String commandLine) {

    /** The most clients the default puts in one client process. */
    public static final int MAX_CLIENTS_PER_PROCESS = 250;
    /** Sessions the agent may hold besides the measured clients: the warm-up client and the fresh client. */
    static final int SPARE_SESSIONS = 16;

    public ScaleConfig {
        Objects.requireNonNull(mode, "mode");
        transports = List.copyOf(transports);
        clientCounts = List.copyOf(clientCounts);
        if (transports.isEmpty() || clientCounts.isEmpty()) {
            throw new IllegalArgumentException("name at least one transport and one client count");
        }
        if (clientCounts.stream().anyMatch(c -> c <= 0)) {
            throw new IllegalArgumentException("client counts must be positive, got " + clientCounts);
        }
        if (clientProcesses < 0) {
            throw new IllegalArgumentException("--client-processes must be positive, got " + clientProcesses);
        }
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("--interval-ms must be positive, got " + intervalMs);
        }
        if (dummySensors <= 0 || connectRate <= 0 || listCalls <= 0 || listWarmupCalls < 0) {
            throw new IllegalArgumentException("--dummy-sensors, --connect-rate and --list-calls must be positive,"
                    + " --list-warmup-calls 0 or more");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("--duration must be positive, got " + duration);
        }
        if (warmup.isNegative() || settle.isNegative()) {
            throw new IllegalArgumentException("--warmup and --settle must be 0 or more");
        }
    }

    /**
     * The client processes for {@code clients} clients: {@code --client-processes} when given (at
     * most one per client), else enough that none runs more than {@value #MAX_CLIENTS_PER_PROCESS}.
     */
    public int processesFor(int clients) {
        int n = clientProcesses > 0 ? clientProcesses
                : (clients + MAX_CLIENTS_PER_PROCESS - 1) / MAX_CLIENTS_PER_PROCESS;
        return Math.max(1, Math.min(n, clients));
    }

    /**
     * The clients process {@code process} of {@code processes} runs, of {@code clients} in all: client i
     * runs in process i mod processes, so the shares differ by one at most.
     */
    public static List<Integer> clientsOf(int process, int processes, int clients) {
        List<Integer> mine = new ArrayList<>();
        for (int i = process; i < clients; i += processes) {
            mine.add(i);
        }
        return mine;
    }

    /** A transport's name in the report: {@code <transport>+tls} over TLS, as {@code bench transport} names it. */
    public String label(String transport) {
        return tls ? transport + "+tls" : transport;
    }

    /** The pause of one process between two of its connects, so that all together connect at {@link #connectRate}. */
    public long connectPauseMillis(int processes) {
        return Math.round(1000.0 * processes / connectRate);
    }
}
