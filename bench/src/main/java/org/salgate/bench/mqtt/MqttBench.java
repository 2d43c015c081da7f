package org.salgate.bench.mqtt;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttActionListener;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.salgate.agent.Agent;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.mqtt.LineProtocol;
import org.salgate.mqtt.MqttBridge;
import org.salgate.mqtt.MqttBridgeConfig;
import org.salgate.mqtt.MqttCallbackAdapter;
import org.salgate.mqtt.StreamSpec;
import org.salgate.mqtt.Topics;
import org.salgate.mqtt.sparkplug.MetricSpec;
import org.salgate.mqtt.sparkplug.proto.SparkplugB.Payload;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * Readings per second and end-to-end latency through the MQTT bridge (agent stream, store and
 * forward, broker, a subscriber on the same broker), against a Paho client publishing readings of
 * the same format straight to the broker as fast as it can with the same window (the ceiling), in
 * each payload format: salgate's JSON, InfluxDB line protocol, Sparkplug B (whose data goes at
 * QoS 0 whatever the QoS asked, as the specification says). Latency runs from the reading's
 * timestamp to its arrival at the subscriber, on one clock (Sparkplug's timestamps are in
 * milliseconds); the bytes per reading are the payloads' mean size.
 */
public final class MqttBench {

    /** 1 us .. 1 min, in microseconds. */
    private static final long HISTOGRAM_MAX_MICROS = 60_000_000L;
    /** Unacknowledged publishes the ceiling client keeps in flight: the bridge's window. */
    private static final int CEILING_WINDOW = 16;
    /** Longest wait for the bridge's start-up backlog to drain before measuring. */
    private static final Duration CATCH_UP_LIMIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What to run. */
    public record Config(String brokerUrl, int sensors, long intervalMs, Duration warmup, Duration measure,
                         List<Integer> qos, List<Format> formats) {}

    /** A payload format of the bridge, as {@code --mqtt-format} names it. */
    public enum Format {
        JSON, INFLUX, SPARKPLUG;

        /** Its name on the command line. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** json, influx or sparkplug. */
        public static Format parse(String text) {
            for (Format f : values()) {
                if (f.label().equals(text)) {
                    return f;
                }
            }
            throw new IllegalArgumentException("'" + text + "' is not json, influx or sparkplug");
        }
    }

    /** One measured row. */
    public record Row(String path, Format format, int qos, long readings, double seconds, Histogram latencyMicros,
                      long payloadBytes) {
        double perSecond() {
            return readings / seconds;
        }

        double bytesPerReading() {
            return readings == 0 ? 0 : (double) payloadBytes / readings;
        }
    }

    private final Config config;
    private final PrintStream log;

    public MqttBench(Config config, PrintStream log) {
        this.config = config;
        this.log = log;
    }

    /** Warms up and measures the bridge and the ceiling in each format at each QoS (Sparkplug's once, at 0). */
    public List<Row> run() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (Format format : config.formats()) {
            for (int qos : format == Format.SPARKPLUG ? List.of(0) : config.qos()) {
                rows.add(bridge(format, qos));
                rows.add(ceiling(format, qos));
            }
        }
        return rows;
    }

    private Row bridge(Format format, int qos) throws Exception {
        String agentId = "bench-" + format.label() + "-q" + qos + "-" + ProcessHandle.current().pid();
        Topics topics = new Topics("salgate", agentId);
        Path store = Files.createTempDirectory("salgate-bench-mqtt").resolve("store.mv.db");
        MqttBridgeConfig.Builder b = MqttBridgeConfig.builder(config.brokerUrl()).qos(qos).events(false)
                .storeFile(store);
        String filter = topics.all().replace("#", "sensors/+/read");
        switch (format) {
            case JSON -> b.payloadFormat(MqttBridgeConfig.PayloadFormat.JSON);
            case INFLUX -> b.payloadFormat(MqttBridgeConfig.PayloadFormat.INFLUX);
            case SPARKPLUG -> {
                b.sparkplug("bench", agentId);
                filter = "spBv1.0/bench/DDATA/" + agentId + "/+";
            }
            default -> throw new IllegalStateException(format.name());
        }
        for (int i = 0; i < config.sensors(); i++) {
            b.stream(new StreamSpec("DUMMY_" + i, "read", config.intervalMs()));
        }
        MqttBridgeConfig bridgeConfig = b.build();
        PlatformConfig platform = new PlatformConfig(List.of(new ProtocolConfig("dummy", "dummy", "virtual",
                Map.of("sensors", Integer.toString(config.sensors())))));
        AtomicReference<MqttBridge> bridge = new AtomicReference<>();
        try (Subscriber sub = new Subscriber(config.brokerUrl(), filter, qos, format);
             Agent agent = Agent.builder().port(0).agentId(agentId).platform(platform)
                     .extension(a -> {
                         bridge.set(MqttBridge.start(bridgeConfig, a.agentId(), a.codecName(), a.inProcessCredentials(),
                                 sink -> a.openSession("mqtt", () -> true, sink)));
                         return bridge.get();
                     }).start()) {
            log.printf("bridge, %s, QoS %d: %d sensors every %d ms%n", format.label(), qos, config.sensors(),
                    config.intervalMs());
            awaitCaughtUp(bridge.get());
            return sub.measure("bridge", qos);
        }
    }

    /**
     * Readings pile up in the queue while the bridge connects to the broker; the measurement starts
     * once that backlog is gone (or after {@link #CATCH_UP_LIMIT}, when the bridge cannot keep up).
     */
    private void awaitCaughtUp(MqttBridge bridge) throws InterruptedException {
        long deadline = System.nanoTime() + CATCH_UP_LIMIT.toNanos();
        while ((!bridge.isConnected() || bridge.pending() > config.sensors()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (bridge.pending() > config.sensors()) {
            log.printf("the bridge did not catch up within %s: %d readings wait%n", CATCH_UP_LIMIT, bridge.pending());
        }
    }

    private Row ceiling(Format format, int qos) throws Exception {
        String topic = "salgate/bench-ceiling-" + format.label() + "-q" + qos + "-" + ProcessHandle.current().pid()
                + "/sensors/DUMMY_0/read";
        try (Subscriber sub = new Subscriber(config.brokerUrl(), topic, qos, format)) {
            MqttAsyncClient pub = new MqttAsyncClient(config.brokerUrl(), "salgate-bench-ceiling-" + qos,
                    new MemoryPersistence());
            pub.connect(new MqttConnectionOptions()).waitForCompletion(10_000);
            Semaphore window = new Semaphore(CEILING_WINDOW);
            Thread publisher = new Thread(() -> publishFlatOut(pub, topic, qos, window, format), "bench-ceiling");
            publisher.setDaemon(true);
            log.printf("ceiling, %s, QoS %d: one Paho client publishing as fast as its window allows%n",
                    format.label(), qos);
            publisher.start();
            try {
                return sub.measure("Paho direct", qos);
            } finally {
                publisher.interrupt();
                publisher.join(5000);
                pub.disconnect().waitForCompletion(5000);
                pub.close();
            }
        }
    }

    private static void publishFlatOut(MqttAsyncClient pub, String topic, int qos, Semaphore window, Format format) {
        LineProtocol lines = new LineProtocol(LineProtocol.DEFAULT_MEASUREMENT, "bench-ceiling",
                LineProtocol.Precision.NS);
        long seq = 0;
        MqttActionListener release = new MqttActionListener() {
            @Override
            public void onSuccess(IMqttToken token) {
                window.release();
            }

            @Override
            public void onFailure(IMqttToken token, Throwable cause) {
                window.release();
            }
        };
        try {
            while (!Thread.currentThread().isInterrupted()) {
                window.acquire();
                Instant now = Instant.now();
                long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
                byte[] payload = switch (format) {
                    case JSON -> ("{\"sensor\":\"DUMMY_0\",\"command\":\"read\",\"sequence\":" + seq
                            + ",\"timestamp\":\"" + now + "\",\"timestampMicros\":" + micros
                            + ",\"status\":\"OK\",\"value\":42.0,\"unit\":\"1\"}").getBytes(StandardCharsets.UTF_8);
                    case INFLUX -> lines.payload(Reading.ok("DUMMY_0", micros, seq, Value.of(42.0)).withUnit("1"), "read");
                    case SPARKPLUG -> Payload.newBuilder().setTimestamp(micros / 1000).setSeq(seq & 0xFF)
                            .addMetrics(Payload.Metric.newBuilder().setAlias(1).setTimestamp(micros / 1000)
                                    .setDatatype(MetricSpec.DataType.DOUBLE.code()).setDoubleValue(42.0)).build().toByteArray();
                };
                seq++;
                pub.publish(topic, new MqttMessage(payload, qos, false, new MqttProperties()), null, release);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (MqttException e) {
            throw new IllegalStateException("the ceiling publisher failed: " + e.getMessage(), e);
        }
    }

    /** Subscribes, then counts and times what arrives: a warm-up, then the measured span. */
    private final class Subscriber implements AutoCloseable {
        private final MqttAsyncClient client;
        private final Recorder latency = new Recorder(HISTOGRAM_MAX_MICROS, 3);
        private final AtomicLong received = new AtomicLong();
        private final AtomicLong bytes = new AtomicLong();
        private final Format format;

        Subscriber(String url, String filter, int qos, Format format) throws MqttException {
            this.format = format;
            client = new MqttAsyncClient(url, "salgate-bench-sub-" + System.nanoTime(), new MemoryPersistence());
            client.connect(new MqttConnectionOptions()).waitForCompletion(10_000);
            client.setCallback(new MqttCallbackAdapter() {
                @Override
                public void messageArrived(String topic, MqttMessage message) {
                    Instant now = Instant.now();
                    long nowMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
                    long sent = timestampMicros(message.getPayload(), Subscriber.this.format);
                    received.incrementAndGet();
                    bytes.addAndGet(message.getPayload().length);
                    latency.recordValue(Math.max(1, Math.min(HISTOGRAM_MAX_MICROS, nowMicros - sent)));
                }

            });
            client.subscribe(new MqttSubscription(filter, qos)).waitForCompletion(10_000);
        }

        Row measure(String path, int qos) throws InterruptedException {
            Thread.sleep(config.warmup().toMillis());
            latency.getIntervalHistogram();
            long start = System.nanoTime();
            long before = received.get();
            long bytesBefore = bytes.get();
            Thread.sleep(config.measure().toMillis());
            long n = received.get() - before;
            long size = bytes.get() - bytesBefore;
            double seconds = (System.nanoTime() - start) / 1e9;
            Histogram h = latency.getIntervalHistogram();
            return new Row(path, format, qos, n, seconds, h, size);
        }

        @Override
        public void close() throws MqttException {
            client.disconnect().waitForCompletion(5000);
            client.close();
        }
    }

    /** When the reading was taken, as its payload says. */
    private static long timestampMicros(byte[] payload, Format format) {
        try {
            return switch (format) {
                case JSON -> JSON.readTree(payload).get("timestampMicros").asLong();
                case INFLUX -> {
                    String line = new String(payload, StandardCharsets.UTF_8);
                    yield Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)) / 1000;
                }
                case SPARKPLUG -> Payload.parseFrom(payload).getMetrics(0).getTimestamp() * 1000;
            };
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("a reading on the broker is not the bridge's " + format.label(), e);
        }
    }

    /**
     * The rows as a Markdown table; a bridge row's ratio is its readings/s over those of the Paho
     * row of the same format and QoS, measured just after it.
     */
    public static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| path | format | QoS | readings/s | of Paho direct | latency p50 (ms) | p99 (ms) | max (ms) |"
                + " bytes/reading |\n");
        sb.append("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            Histogram h = r.latencyMicros();
            String ratio = "";
            if (r.path().equals("bridge")) {
                ratio = rows.stream().filter(c -> !c.path().equals("bridge") && c.format() == r.format()
                        && c.qos() == r.qos()).findFirst()
                        .map(c -> String.format("%.2f", r.perSecond() / c.perSecond())).orElse("");
            }
            sb.append(String.format("| %s | %s | %d | %.0f | %s | %.2f | %.2f | %.2f | %.0f |%n", r.path(),
                    r.format().label(), r.qos(), r.perSecond(), ratio, h.getValueAtPercentile(50) / 1000.0,
                    h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0, r.bytesPerReading()));
        }
        return sb.toString();
    }
}
