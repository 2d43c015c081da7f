package org.salgate.bench.scale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.salgate.bench.workload.BenchChannel;
import org.salgate.bench.workload.StreamCounter;
import org.salgate.bench.workload.StreamSpec;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.program.ProgramDefaults;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.model.StreamCounts;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One client process of {@code bench scale}, started by the bench (not meant to be run by hand).
 * It runs clients {@code process}, {@code process + processes}, {@code process + 2 * processes}...
 * of {@code clients} (client i in process i mod processes), each a {@link TransportChannel} of its
 * own, and takes its orders on stdin, one word a line:
 * <ol>
 *   <li>at start it reports {@link ProcessReport#READY} and waits: the bench lets the processes connect
 *       only once all of them are up, so that no client's hello waits behind other JVMs' start-up (it
 *       first makes one connection of its transport to a throwaway server in its own JVM,
 *       {@link ConnectionWarmUp}, and over TLS runs handshakes in memory, {@link TlsWarmUp});</li>
 *   <li>{@code connect}: connects its clients one after the other, pausing {@code --connect-pause-ms}
 *       between two (and process p {@code p / processes} of that before its first), each completing its
 *       hello, then reports {@link ProcessReport#CONNECTED}; meanwhile, every few seconds, how many it
 *       has tried ({@value ProcessReport#PROGRESS_PREFIX}{@code <n>}), so that the bench can tell a
 *       slow process from a stuck one;</li>
 *   <li>{@code start} (stream and fan-out modes): sets up and starts one stream per client (fan-out: each
 *       client joins the agent's shared stream of DUMMY_0), 16 at a time, then reports
 *       {@link ProcessReport#STARTED};</li>
 *   <li>{@code stop}: stops the streams (stream and fan-out modes) or checks that every session is still open
 *       (idle mode), reports {@link ProcessReport#RESULT}, closes its clients and exits.</li>
 * </ol>
 * When stdin closes without a {@code stop}, it closes its clients and exits, so that it never
 * outlives the bench. Reports go to stdout as {@value ProcessReport#LINE_PREFIX}{@code <json>}
 * lines; logs go to stderr.
 */
@Command(name = "scale-clients", description = "A client process of bench scale (started by the bench).")
public final class ScaleClientMain implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_NOTES = 5;

    @Option(names = "--transport", required = true)
    String transport;

    @Option(names = "--port", required = true)
    int port;

    @Option(names = "--mode", required = true, description = "stream, fanout or idle")
    ScaleMode mode;

    @Option(names = "--process", required = true)
    int process;

    @Option(names = "--processes", required = true)
    int processes;

    @Option(names = "--clients", required = true, description = "All the processes' clients together.")
    int clients;

    @Option(names = "--interval-ms", defaultValue = "100")
    long intervalMs;

    @Option(names = "--dummy-sensors", defaultValue = "20")
    int dummySensors;

    @Option(names = "--connect-pause-ms", defaultValue = "0")
    long connectPauseMs;

    @Option(names = "--timeout-ms", defaultValue = "30000")
    long timeoutMs;

    /** The option that makes every connection TLS, pinning the agent's certificate. */
    static final String TLS_PIN_OPTION = "--tls-pin";

    @Option(names = TLS_PIN_OPTION, paramLabel = "SHA256",
            description = "Connect over TLS, trusting only the certificate with this SHA-256 fingerprint.")
    String tlsPin;

    private final PrintStream out;
    private final List<Client> connected = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private int assigned;
    private int connectFailures;
    private String firstConnectError;
    private long connectMillis;
    private int streamFailures;
    private String firstStreamError;

    ScaleClientMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        ProgramDefaults.apply();
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new ScaleClientMain(System.out)).setCaseInsensitiveEnumValuesAllowed(true)
                .execute(args));
    }

    /** One client: its connection, its number, and (stream mode) its stream. */
    private static final class Client {
        final int index;
        final TransportChannel channel;
        final StreamCounter counter;
        BenchChannel.Subscription subscription;
        long startedNanos;
        long stoppedNanos;

        Client(int index, TransportChannel channel, boolean joinsLate) {
            this.index = index;
            this.channel = channel;
            this.counter = new StreamCounter(joinsLate);
        }
    }

    @Override
    public Integer call() throws Exception {
        if (processes <= 0 || process < 0 || process >= processes || clients <= 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "bad share: process " + process + " of "
                    + processes + ", " + clients + " clients");
        }
        TransportProvider provider = Transports.byName(transport);
        Duration timeout = Duration.ofMillis(timeoutMs);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            try {
                ConnectionWarmUp.warmUp(provider, timeout);
            } catch (Exception e) {
                note("the warm-up connection failed: " + message(e));
            }
            if (tlsPin != null) {
                try {
                    TlsWarmUp.warmUp();
                } catch (IOException | RuntimeException e) {
                    note("the in-memory TLS warm-up failed: " + message(e));
                }
            }
            report(ProcessReport.READY);
            String line;
            while ((line = in.readLine()) != null && !line.trim().equals("connect")) {
                if (!line.isBlank()) {
                    note("unknown order '" + line.trim() + "' before connect ignored");
                }
            }
            if (line == null) {
                System.err.println("stdin closed before the order to connect: the bench is gone");
                return 1;
            }
            connect(provider, timeout);
            report(ProcessReport.CONNECTED);
            while ((line = in.readLine()) != null) {
                switch (line.trim()) {
                    case "start" -> {
                        startStreams();
                        report(ProcessReport.STARTED);
                    }
                    case "stop" -> {
                        if (mode != ScaleMode.IDLE) {
                            stopStreams();
                        }
                        report(ProcessReport.RESULT);
                        return 0;
                    }
                    case "" -> { }
                    default -> note("unknown order '" + line.trim() + "' ignored");
                }
            }
            System.err.println("stdin closed before a stop: the bench is gone, closing the clients");
            return 1;
        } finally {
            connected.forEach(c -> c.channel.close());
        }
    }

    private void connect(TransportProvider provider, Duration timeout) throws InterruptedException {
        long t0 = System.nanoTime();
        // the processes take turns: process p makes its first connect p / processes of a pause after process 0
        Thread.sleep(connectPauseMs * process / processes);
        long lastProgress = System.nanoTime();
        int tried = 0;
        for (int i : ScaleConfig.clientsOf(process, processes, clients)) {
            assigned++;
            if (connectPauseMs > 0 && assigned > 1) {
                Thread.sleep(connectPauseMs);
            }
            if (tried > 0 && System.nanoTime() - lastProgress >= TimeUnit.MILLISECONDS.toNanos(
                    ProcessReport.PROGRESS_EVERY_MILLIS)) {
                out.println(ProcessReport.PROGRESS_PREFIX + tried);
                out.flush();
                lastProgress = System.nanoTime();
            }
            tried++;
            try {
                connected.add(new Client(i, TransportChannel.connect(provider, port, i, timeout,
                        tlsPin == null ? null : TlsConfig.clientPinned(tlsPin)),
                        mode == ScaleMode.FANOUT));
            } catch (IOException | RuntimeException e) {
                connectFailures++;
                if (firstConnectError == null) {
                    firstConnectError = "client " + i + ": " + message(e);
                }
            }
        }
        connectMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    /** Threads that set up, start and stop this process's streams, as {@code bench agent}'s workloads do. */
    private static final int CONTROL_THREADS = 16;

    private void startStreams() throws InterruptedException {
        StreamSpec spec = mode == ScaleMode.FANOUT ? StreamSpec.sharedDummySensor(intervalMs)
                : StreamSpec.dummySensors(dummySensors, intervalMs);
        onEveryClient("start", c -> {
            c.counter.measuring(true);
            BenchChannel.PreparedStream prepared = c.channel.prepareStream(spec, c.counter);
            c.subscription = prepared.start();
            c.startedNanos = System.nanoTime();
        });
    }

    private void stopStreams() throws InterruptedException {
        onEveryClient("stop", c -> {
            if (c.subscription != null) {
                c.subscription.stop();
                c.stoppedNanos = System.nanoTime();
            }
        });
    }

    /** What to do for one client, on one of the control threads. */
    @FunctionalInterface
    private interface ClientStep {
        void run(Client c) throws Exception;
    }

    /**
     * Runs {@code step} for every client, {@value #CONTROL_THREADS} at a time: one by one, the last of
     * hundreds would wait behind the readings of all the streams already running. A client whose step
     * fails counts as a stream failure.
     */
    private void onEveryClient(String what, ClientStep step) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(CONTROL_THREADS, connected.size())));
        try {
            List<Future<?>> done = new ArrayList<>();
            for (Client c : connected) {
                done.add(pool.submit(() -> {
                    step.run(c);
                    return null;
                }));
            }
            for (int i = 0; i < done.size(); i++) {
                try {
                    done.get(i).get();
                } catch (ExecutionException e) {
                    streamFailed(connected.get(i), what, e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void streamFailed(Client c, String what, Throwable e) {
        streamFailures++;
        if (firstStreamError == null) {
            firstStreamError = "client " + c.index + ", " + what + ": " + message(e);
        }
    }

    private void note(String s) {
        if (notes.size() < MAX_NOTES) {
            notes.add(s);
        }
    }

    private void report(String phase) throws JsonProcessingException {
        int started = 0;
        int endedByAgent = 0;
        int closedByAgent = 0;
        long received = 0, lost = 0, dup = 0, reordered = 0, delivered = 0, skipped = 0, dropped = 0;
        double expected = 0;
        for (Client c : connected) {
            if (c.subscription != null) {
                started++;
            }
            StreamCounter k = c.counter;
            received += k.messages();
            lost += k.sequence().lost();
            dup += k.sequence().duplicated();
            reordered += k.sequence().reordered();
            StreamCounts counts = k.serverCounts();
            if (counts != null) {
                delivered += counts.delivered();
                skipped += counts.skipped();
                dropped += counts.dropped();
            }
            if (c.startedNanos > 0 && c.stoppedNanos > 0) {
                // the agent's first tick comes right after its answer to the start, then one per interval
                expected += 1 + (c.stoppedNanos - c.startedNanos) / (intervalMs * 1e6);
            }
            if (k.endedByServer() != null) {
                endedByAgent++;
                note("client " + c.index + ": the agent ended its stream: " + k.endedByServer());
            }
            if (ProcessReport.RESULT.equals(phase) && !c.channel.isOpen()) {
                closedByAgent++;
                note("client " + c.index + ": its session was closed before the end");
            }
        }
        ProcessReport r = new ProcessReport(process, phase, assigned, connected.size(), connectFailures,
                firstConnectError, connectMillis, started, streamFailures, firstStreamError, received, lost, dup,
                reordered, delivered, skipped, dropped, expected, endedByAgent, closedByAgent, notes);
        out.println(ProcessReport.LINE_PREFIX + JSON.writeValueAsString(r));
        out.flush();
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
    }
}
