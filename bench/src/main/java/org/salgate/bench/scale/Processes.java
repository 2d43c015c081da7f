package org.salgate.bench.scale;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.salgate.transport.TransportProvider;

/**
 * The client processes of one cell. A process that fails (does not start, exits, or stays silent
 * past a deadline) is written into the cell's failures, keeps its last report, and gets no more
 * orders; the others go on.
 */
final class Processes implements AutoCloseable {

    private final List<ClientProcess> processes;
    private final ProcessReport[] last;
    private final boolean[] failed;
    private final int[] shares;
    private final List<String> failures;
    private final ScaleRunner runner;
    private final long startedNanos = System.nanoTime();

    private Processes(ScaleRunner runner, List<ClientProcess> processes, int[] shares, List<String> failures) {
        this.runner = runner;
        this.processes = processes;
        this.shares = shares;
        this.failures = failures;
        this.last = new ProcessReport[shares.length];
        this.failed = new boolean[shares.length];
    }

    /**
     * Starts {@code count} processes, process p running clients p, p + count, p + 2 count...
     *
     * @param streamedSensors the dummy sensors the clients stream, client i DUMMY_(i mod streamedSensors)
     */
    static Processes start(ScaleRunner runner, TransportProvider provider, int port, ScaleMode mode, int clients,
                           int streamedSensors, int count, long connectPauseMillis, String cellName,
                           List<String> failures)
            throws IOException {
        ScaleConfig config = runner.config();
        int[] shares = new int[count];
        for (int p = 0; p < count; p++) {
            shares[p] = ScaleConfig.clientsOf(p, count, clients).size();
        }
        List<ClientProcess> started = new ArrayList<>();
        try {
            for (int p = 0; p < count; p++) {
                List<String> args = new ArrayList<>(List.of("--transport", provider.name(),
                        "--port", Integer.toString(port),
                        "--mode", mode.id(), "--process", Integer.toString(p), "--processes", Integer.toString(count),
                        "--clients", Integer.toString(clients), "--interval-ms", Long.toString(config.intervalMs()),
                        "--dummy-sensors", Integer.toString(streamedSensors),
                        "--connect-pause-ms", Long.toString(connectPauseMillis),
                        "--timeout-ms", Long.toString(ScaleRunner.CALL_TIMEOUT.toMillis())));
                if (runner.tls() != null) {
                    args.addAll(List.of(ScaleClientMain.TLS_PIN_OPTION, runner.tls().pin()));
                }
                started.add(ClientProcess.start(p, args, config.out().resolve("clients-"
                        + config.label(provider.name()) + "-" + cellName + "-" + p + ".log")));
            }
        } catch (IOException e) {
            started.forEach(ClientProcess::close);
            throw new IOException("could not start client process " + started.size() + ": " + e.getMessage(), e);
        }
        return new Processes(runner, started, shares, failures);
    }

    /** Sends {@code order} to every process still going. */
    void sendAll(String order) {
        for (ClientProcess p : processes) {
            if (!failed[p.index()]) {
                try {
                    p.send(order);
                } catch (IOException e) {
                    fail(p, "could not be given '" + order + "': " + e.getMessage());
                }
            }
        }
    }

    /** Waits for every process still going to report {@code phase}, each by {@code deadlineNanos}. */
    void awaitAll(String phase, long deadlineNanos) throws InterruptedException {
        awaitAll(phase, deadlineNanos, 0);
    }

    /**
     * Waits for every process still going to report {@code phase}, each by {@code deadlineNanos} or
     * by {@code stallNanos} after it last said it was getting on, whichever is later
     * ({@link ClientProcess#await(String, long, long)}).
     */
    void awaitAll(String phase, long deadlineNanos, long stallNanos) throws InterruptedException {
        for (ClientProcess p : processes) {
            if (failed[p.index()]) {
                continue;
            }
            try {
                last[p.index()] = p.await(phase, deadlineNanos, stallNanos);
            } catch (IOException e) {
                fail(p, e.getMessage());
            }
        }
        if (phase.equals(ProcessReport.READY)) {
            long up = processes.stream().filter(p -> !failed[p.index()]).count();
            runner.progress(String.format(Locale.ROOT, "%d of %d client processes up after %.0f s; connecting",
                    up, processes.size(), (System.nanoTime() - startedNanos) / 1e9));
            return;
        }
        ClientTotals t = ClientTotals.of(reports());
        runner.progress(String.format(Locale.ROOT, "%s: %d of %d clients connected, %d connect failures%s",
                phase, t.connected(), t.clients(), t.connectFailures(),
                phase.equals(ProcessReport.CONNECTED) ? ", slowest process " + t.slowestConnectMillis() + " ms"
                        : ", " + t.streamsStarted() + " streams"));
    }

    private void fail(ClientProcess p, String why) {
        failed[p.index()] = true;
        failures.add(why);
    }

    /**
     * The last report of every process; a process that never reported counts its clients as not
     * connected.
     */
    List<ProcessReport> reports() {
        List<ProcessReport> out = new ArrayList<>();
        for (int p = 0; p < last.length; p++) {
            out.add(last[p] != null ? last[p]
                    : ProcessReport.failed(p, "none", shares[p], "client process " + p + " never reported"));
        }
        return out;
    }

    /** Tells every process to end (closes their stdins at once), then waits for each. */
    @Override
    public void close() {
        processes.forEach(ClientProcess::closeInput);
        processes.forEach(ClientProcess::close);
    }
}
