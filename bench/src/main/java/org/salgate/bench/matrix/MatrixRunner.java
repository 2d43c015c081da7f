package org.salgate.bench.matrix;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.salgate.bench.codec.format.PayloadFormat;
import org.salgate.bench.codec.format.PayloadFormats;
import org.salgate.bench.codec.study.Person;
import org.salgate.bench.codec.study.StudyData;
import org.salgate.bench.run.Progress;
import org.salgate.bench.sample.ProcStat;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.bench.server.BenchServerMain;
import org.salgate.bench.server.ServerProcess;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.model.Call;
import org.salgate.model.Result;
import org.salgate.model.Value;

/**
 * Runs the matrix: per transport one object-echo server JVM; per format on it one connection and the
 * warm-up echoes; then the measured repetitions of {@code persons} sequential echoes, the formats
 * interleaved. Every answer is decoded and compared with the person sent; a difference fails that
 * repetition.
 */
public final class MatrixRunner {

    /** Longest wait for one echo's answer: far above any healthy echo, short enough to end a stuck run. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final MatrixConfig config;
    private final PrintStream console;
    private final List<Person> persons;
    private final List<CellRun> runs = new ArrayList<>();
    private final long startNanos = System.nanoTime();

    public MatrixRunner(MatrixConfig config, PrintStream console) {
        this.config = config;
        this.console = console;
        this.persons = StudyData.persons(config.persons(), config.seed());
    }

    /** Runs every cell; failures are recorded in the results, not thrown. */
    public List<CellRun> run() throws IOException {
        Files.createDirectories(config.out());
        for (String transport : config.transports()) {
            runTransport(transport);
        }
        return List.copyOf(runs);
    }

    private void runTransport(String transport) {
        TransportProvider provider = Transports.byName(transport);
        ServerProcess server;
        try {
            server = ServerProcess.start(List.of("transport", transport, BenchServerMain.OBJECT_ECHO),
                    config.out().resolve("server-" + transport + ".log"));
        } catch (IOException e) {
            note("server for " + transport + " did not start: " + e.getMessage());
            for (String codec : config.codecs()) {
                failAll(transport, codec, 1, "the server did not start: " + e.getMessage());
            }
            return;
        }
        try (server) {
            note("server " + server + " started (object echo)");
            runFormats(provider, server);
        }
    }

    /**
     * One connection per format. Every format is warmed up before any is measured, so that the
     * first format measured does not pay for the transport's own warm-up; then each repetition
     * measures every format once, starting from a different format each time, so that no format
     * is always measured first or last.
     */
    private void runFormats(TransportProvider provider, ServerProcess server) {
        String transport = provider.name();
        Map<String, TransportChannel> clients = new LinkedHashMap<>();
        try {
            for (String codec : config.codecs()) {
                PayloadFormat format = PayloadFormats.byName(codec);
                TransportChannel client;
                try {
                    client = TransportChannel.connect(provider, server.port(), 0, CALL_TIMEOUT);
                } catch (IOException e) {
                    failAll(transport, codec, 1, "could not connect: " + e.getMessage());
                    continue;
                }
                try {
                    for (int i = 0; i < config.warmupCalls(); i++) {
                        echoOne(client, format, i % persons.size());
                    }
                    clients.put(codec, client);
                } catch (Exception e) {
                    client.close();
                    failAll(transport, codec, 1, "warm-up failed: " + describe(e));
                }
            }
            List<String> measured = new ArrayList<>(clients.keySet());
            for (int rep = 1; rep <= config.reps(); rep++) {
                for (int k = 0; k < measured.size(); k++) {
                    String codec = measured.get((k + rep - 1) % measured.size());
                    starting(transport, codec, rep);
                    CellRun r = measure(clients.get(codec), PayloadFormats.byName(codec), server.pid(), transport, rep);
                    runs.add(r);
                    console.println("      " + (r.ok() ? String.format(Locale.ROOT, "%.1f ms for %d echoes, %.0f B/call, "
                            + "server CPU %.0f %%", r.millis(), persons.size(), r.bytesPerCall(), r.serverCpuPercent())
                            : "FAILED: " + r.error()));
                    console.flush();
                }
            }
        } finally {
            clients.values().forEach(TransportChannel::close);
        }
    }

    private Person echoOne(TransportChannel client, PayloadFormat format, int i) throws Exception {
        byte[] back = echo(client, Envelope.wrap(format.name(), format.encode(persons.get(i))));
        return format.decode(Envelope.parse(back).body(), Person.class);
    }

    private CellRun measure(TransportChannel client, PayloadFormat format, long serverPid, String transport, int rep) {
        int n = persons.size();
        Person[] answers = new Person[n];
        String[] answerFormats = new String[n];
        long bytes = 0;
        ProcStat.Reading before = readCpu(serverPid);
        long t0 = System.nanoTime();
        try {
            for (int i = 0; i < n; i++) {
                byte[] envelope = Envelope.wrap(format.name(), format.encode(persons.get(i)));
                bytes += envelope.length;
                Envelope back = Envelope.parse(echo(client, envelope));
                answerFormats[i] = back.format();
                answers[i] = format.decode(back.body(), Person.class);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return CellRun.failed(transport, format.name(), rep, describe(e));
        }
        long t1 = System.nanoTime();
        ProcStat.Reading after = readCpu(serverPid);
        for (int i = 0; i < n; i++) {
            if (!format.name().equals(answerFormats[i])) {
                return CellRun.failed(transport, format.name(), rep, "echo " + i + " came back as '" + answerFormats[i]
                        + "', not '" + format.name() + "'");
            }
            if (!persons.get(i).equals(answers[i])) {
                return CellRun.failed(transport, format.name(), rep, "person " + persons.get(i).id()
                        + " came back different from the one sent");
            }
        }
        double cpu = before == null || after == null || after.wallNanos() <= before.wallNanos() ? Double.NaN
                : 100.0 * (after.cpuNanos() - before.cpuNanos()) / (after.wallNanos() - before.wallNanos());
        return new CellRun(transport, format.name(), rep, (t1 - t0) / 1e6, (double) bytes / n, cpu, null);
    }

    private static ProcStat.Reading readCpu(long pid) {
        if (!ProcStat.supported()) {
            return null;
        }
        try {
            return new ProcStat(pid).read();
        } catch (IOException e) {
            return null;
        }
    }

    private void failAll(String transport, String codec, int fromRep, String error) {
        for (int rep = fromRep; rep <= config.reps(); rep++) {
            runs.add(CellRun.failed(transport, codec, rep, error));
        }
        note("      FAILED " + transport + " " + codec + ": " + error);
    }

    private void starting(String transport, String codec, int rep) {
        int done = runs.size();
        int total = config.measurements();
        String left = "estimating";
        if (done > 0) {
            double perCell = (System.nanoTime() - startNanos) / 1e9 / done;
            left = "about " + Progress.formatSeconds(perCell * (total - done)) + " to go";
        }
        note(String.format(Locale.ROOT, "[%d/%d] %s %s rep %d/%d  (%s)", done + 1, total, transport, codec, rep,
                config.reps(), left));
    }

    private void note(String line) {
        console.println(line);
        console.flush();
    }

    /** Echoes {@code envelope} and returns the server's envelope; any other answer is an IOException. */
    private static byte[] echo(TransportChannel client, byte[] envelope) throws Exception {
        Result r;
        try {
            r = client.request(new Call.Echo(new Value.Bytes(envelope)));
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        }
        if (r instanceof Result.Echoed e && e.payload() instanceof Value.Bytes b) {
            return b.value();
        }
        throw new IOException("the server answered the echo with " + (r instanceof Result.Failure x
                ? x.code() + ": " + x.message() : r.getClass().getSimpleName()));
    }

    private static String describe(Exception e) {
        if (e instanceof TimeoutException) {
            return "no answer within " + CALL_TIMEOUT.toSeconds() + " s";
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
