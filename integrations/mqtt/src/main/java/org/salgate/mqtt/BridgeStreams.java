package org.salgate.mqtt;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.salgate.model.Call;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.mqtt.report.Report;
import org.salgate.mqtt.report.ReportFilter;
import org.salgate.mqtt.report.ReportStats;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streams the bridge has on the agent, kept to what is asked: the streams of the command line,
 * and those of the streams file, read again every {@value #REREAD_SECONDS} s. A stream whose sensor
 * is a pattern ({@code *}, {@code lab.*}) has one stream on the agent per matching sensor, started
 * for sensors added later too; a removed sensor's stream is ended by the agent. Thread-safe: changes
 * are made one at a time, on the caller's thread at start and on the bridge's own thread after.
 */
public final class BridgeStreams implements AutoCloseable {

    /** Told of each stream the bridge starts on the agent and of each that ends, whoever ends it. */
    public interface Watcher {
        void started(StreamSpec spec);

        void ended(StreamSpec spec);
    }

    /** One stream on the agent: what it publishes, the stream asked for that made it, and its report filter. */
    public record Target(StreamSpec spec, StreamSpec origin, String topic, ReportFilter filter) {}

    /** How often the streams file is read again. */
    static final long REREAD_SECONDS = 1;

    private static final Logger LOG = LoggerFactory.getLogger(BridgeStreams.class);

    private final AgentSession calls;
    private final Topics topics;
    private final Path file;
    private final ReportStats reports;
    private final Watcher watcher;
    private final Map<Long, Target> targets = new ConcurrentHashMap<>();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sal-mqtt-streams");
        t.setDaemon(true);
        return t;
    });
    private List<StreamSpec> fixed = List.of();
    private List<StreamSpec> fromFile = List.of();
    private String fileProblem;

    /**
     * Streams made through {@code calls}, published to {@code topics}, with those of {@code file}
     * (or null); their report filters count into {@code reports}.
     */
    public BridgeStreams(AgentSession calls, Topics topics, Path file, ReportStats reports, Watcher watcher) {
        this.calls = calls;
        this.topics = topics;
        this.file = file;
        this.reports = reports;
        this.watcher = watcher;
    }


    /**
     * Starts the command line's streams and the file's, and from now on reads the file again.
     *
     * @throws IOException when the agent refuses a stream of one named sensor, or the file is unreadable
     */
    public synchronized void start(List<StreamSpec> configured) throws IOException {
        fixed = List.copyOf(configured);
        if (file != null) {
            fromFile = readFile();
        }
        List<SensorInfo> sensors = sensors();
        for (StreamSpec spec : wanted()) {
            begin(spec, sensors, true);
        }
        if (file != null) {
            thread.scheduleWithFixedDelay(this::reread, REREAD_SECONDS, REREAD_SECONDS, TimeUnit.SECONDS);
        }
    }

    /**
     * Passes a reading the agent pushed through its stream's report filter: each report let through
     * goes to {@code out} with its stream. A stream the bridge no longer keeps is passed over.
     */
    public void offer(StreamData data, BiConsumer<Target, Report> out) {
        Target t = targets.get(data.streamId());
        if (t != null) {
            for (Report r : t.filter().offer(data.reading())) {
                out.accept(t, r);
            }
        }
    }

    /**
     * The agent ended a stream: it is forgotten and, unless the bridge is closing, logged (at info
     * for a pattern's stream, whose sensor went away; at warning for any other).
     */
    public void ended(StreamEnded ended) {
        Target t = targets.remove(ended.streamId());
        if (t == null) {
            return;
        }
        watcher.ended(t.spec());
        if (thread.isShutdown()) {
            return;
        }
        if (t.origin().isPattern()) {
            LOG.info("the agent ended {}'s stream {} (of {}): {}", calls.who(), t.spec(), t.origin(), ended.reason());
        } else {
            LOG.warn("the agent ended {}'s stream {}: {}", calls.who(), t.spec(), ended.reason());
        }
    }

    /** How many streams the bridge has on the agent. */
    public int size() {
        return targets.size();
    }

    /** The agent has a new sensor: the patterns that match it get a stream of it. */
    public void sensorAdded(String sensorId) {
        try {
            thread.execute(() -> startMatching(sensorId));
        } catch (RejectedExecutionException closing) {
            // closing
        }
    }

    private synchronized void startMatching(String sensorId) {
        for (StreamSpec spec : wanted()) {
            if (spec.isPattern() && spec.matches(sensorId) && !has(spec, sensorId)) {
                tryStart(spec.forSensor(sensorId), spec);
            }
        }
    }

    private synchronized void reread() {
        List<StreamSpec> now;
        try {
            now = readFile();
        } catch (IOException e) {
            if (!e.getMessage().equals(fileProblem)) {
                fileProblem = e.getMessage();
                LOG.warn("{}; the MQTT bridge keeps its streams as they are until the file is fixed", fileProblem);
            }
            return;
        }
        fileProblem = null;
        if (now.equals(fromFile)) {
            return;
        }
        Set<StreamSpec> before = new LinkedHashSet<>(wanted());
        fromFile = now;
        Set<StreamSpec> after = new LinkedHashSet<>(wanted());
        targets.forEach((id, t) -> {
            if (!after.contains(t.origin())) {
                stop(id, t);
            }
        });
        List<SensorInfo> sensors = null;
        for (StreamSpec spec : after) {
            if (!before.contains(spec)) {
                try {
                    if (sensors == null) {
                        sensors = sensors();
                    }
                    begin(spec, sensors, false);
                } catch (IOException e) {
                    LOG.warn("the MQTT bridge cannot start stream {} of {}: {}", spec, file, e.getMessage());
                }
            }
        }
        LOG.info("the MQTT bridge read {} again: {} asked for, {} on the agent", file,
                MqttBridge.count(after.size(), "stream"), targets.size());
    }

    private List<StreamSpec> readFile() throws IOException {
        try {
            return StreamSpec.readFile(file);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        } catch (IOException e) {
            throw new IOException("cannot read the MQTT streams file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The streams asked for, the command line's then the file's, each once. */
    private List<StreamSpec> wanted() {
        Set<StreamSpec> all = new LinkedHashSet<>(fixed);
        all.addAll(fromFile);
        return new ArrayList<>(all);
    }

    private boolean has(StreamSpec origin, String sensorId) {
        return targets.values().stream().anyMatch(t -> t.origin().equals(origin) && t.spec().sensorId().equals(sensorId));
    }

    private List<SensorInfo> sensors() throws IOException {
        return calls.call(new Call.ListSensors(false), Result.Sensors.class, "listing sensors").sensors();
    }

    /** Starts {@code spec}: a named sensor's stream (failing when {@code strict}), or one per matching sensor. */
    private void begin(StreamSpec spec, List<SensorInfo> sensors, boolean strict) throws IOException {
        if (!spec.isPattern()) {
            if (strict) {
                startStream(spec, spec);
            } else {
                tryStart(spec, spec);
            }
            return;
        }
        for (SensorInfo s : sensors) {
            if (spec.matches(s.id()) && !has(spec, s.id())) {
                tryStart(spec.forSensor(s.id()), spec);
            }
        }
    }

    /** Starts a stream; a sensor the agent refuses it for is skipped with a line saying why. */
    private void tryStart(StreamSpec spec, StreamSpec origin) {
        try {
            startStream(spec, origin);
        } catch (IOException e) {
            LOG.info("the MQTT bridge publishes no stream {} (asked for as {}): {}", spec, origin, e.getMessage());
        }
    }

    private void startStream(StreamSpec spec, StreamSpec origin) throws IOException {
        String what = "stream " + spec;
        Result.StreamHandle handle = calls.call(new Call.SetupStream(spec.sensorId(), spec.commandId(), Map.of(),
                spec.intervalMs()), Result.StreamHandle.class, "setting up " + what);
        targets.put(handle.streamId(), new Target(spec, origin, topics.reading(spec.sensorId(), spec.commandId()),
                spec.report().filter(reports, System::nanoTime)));
        calls.call(new Call.StartStream(handle.streamId()), Result.Ack.class, "starting " + what);
        watcher.started(spec);
    }

    private void stop(long streamId, Target t) {
        targets.remove(streamId);
        watcher.ended(t.spec());
        try {
            calls.call(new Call.StopStream(streamId), Result.Ack.class, "stopping stream " + t.spec());
        } catch (IOException e) {
            LOG.debug("stopping MQTT stream {}: {}", t.spec(), e.getMessage());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
