package org.salgate.mqtt.sparkplug;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.salgate.mqtt.MqttConvention;
import org.salgate.mqtt.sparkplug.MetricSpec.DataType;
import org.salgate.mqtt.sparkplug.SparkplugPayloads.Born;
import org.salgate.mqtt.sparkplug.SparkplugPayloads.Sample;
import org.salgate.mqtt.sparkplug.proto.SparkplugB.Payload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent as a Sparkplug B edge node: each sensor is a device, each of its readable commands a
 * metric of that device. Every connection's will is an NDEATH carrying a new {@code bdSeq}; every
 * connection starts with the NBIRTH of that {@code bdSeq} and a DBIRTH per device, before any
 * DDATA; a stored reading becomes a DDATA naming its metric by alias only. {@code seq} runs from 0
 * at each NBIRTH through 255 and wraps, across all the node's messages. An NCMD
 * {@code Node Control/Rebirth = true} sends all births again; a removed sensor gets a DDEATH.
 * A DCMD to a write command's metric executes that command through the {@link Writer} when the
 * operator allowed writes; otherwise, and for any other metric, it is refused and logged.
 *
 * <p>Threads: the publishing methods run on the bridge's sender thread; devices are defined and
 * removed from the bridge's session threads, and commands arrive on Paho's: the shared state is
 * guarded by this object.
 */
public final class SparkplugNode implements MqttConvention {

    /** Executes a sensor's write command as a client would; the agent checks the value against the command's bounds. */
    @FunctionalInterface
    public interface Writer {
        void write(String sensorId, String commandId, String argument, String value);
    }

    private static final Logger LOG = LoggerFactory.getLogger(SparkplugNode.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A device: a sensor and its metrics by name. */
    private static final class Device {
        final String id;
        final Map<String, MetricSpec> metrics = new LinkedHashMap<>();
        final Map<String, Sample> latest = new HashMap<>();

        Device(String id) {
            this.id = id;
        }
    }

    private final SparkplugTopics topics;
    private final Clock clock;
    /** Null when hosts may not write. */
    private final Writer writer;
    private final Sequence seq = new Sequence();
    private final Sequence bdSeq = new Sequence();
    private final AtomicBoolean rebirth = new AtomicBoolean();
    /** The bdSeq of the connection in use (the last will given). */
    private volatile int currentBdSeq;
    private boolean willGiven;
    // guarded by this
    private final Map<String, Device> devices = new LinkedHashMap<>();
    private final Map<String, Long> aliases = new HashMap<>();
    private final Set<String> toBirth = new LinkedHashSet<>();
    private final Queue<String> toDeath = new ArrayDeque<>();
    private final Set<String> removed = new java.util.HashSet<>();
    private long nextAlias = 1;

    /** A node whose hosts may not write: every DCMD is refused. */
    public SparkplugNode(SparkplugTopics topics, Clock clock) {
        this(topics, clock, null);
    }

    /** A node whose hosts' DCMDs to write commands go to {@code writer} (null: refused). */
    public SparkplugNode(SparkplugTopics topics, Clock clock, Writer writer) {
        this.topics = topics;
        this.clock = clock;
        this.writer = writer;
    }

    public SparkplugTopics topics() {
        return topics;
    }

    /** Where a reading of this sensor is stored for: its device's DDATA topic. */
    public String dataTopic(String sensorId) {
        return topics.ddata(SparkplugTopics.device(sensorId));
    }

    /**
     * Declares a sensor's metrics (its readable commands); a DBIRTH follows when they are new or
     * changed.
     */
    public synchronized void define(String sensorId, List<MetricSpec> metrics) {
        removed.remove(sensorId);
        Device d = devices.computeIfAbsent(sensorId, Device::new);
        boolean changed = false;
        for (MetricSpec m : metrics) {
            if (!m.equals(d.metrics.put(m.name(), m))) {
                alias(sensorId, m.name());
                changed = true;
            }
        }
        if (changed) {
            toBirth.add(sensorId);
        }
    }

    /** A sensor was removed: its device gets a DDEATH, and readings of it still queued are dropped. */
    public synchronized void remove(String sensorId) {
        if (devices.remove(sensorId) != null) {
            toBirth.remove(sensorId);
            toDeath.add(sensorId);
            removed.add(sensorId);
        }
    }

    @Override
    public Message nextWill() {
        if (willGiven) {
            bdSeq.advance();
        }
        willGiven = true;
        currentBdSeq = bdSeq.current();
        return new Message(topics.ndeath(), SparkplugPayloads.ndeath(clock.millis(), currentBdSeq), 1, false);
    }

    @Override
    public List<String> subscriptions() {
        return List.of(topics.ncmd(), topics.dcmdAll());
    }

    @Override
    public void arrived(String topic, byte[] payload) {
        Payload p;
        try {
            p = Payload.parseFrom(payload);
        } catch (InvalidProtocolBufferException e) {
            LOG.warn("ignored a Sparkplug command on {} that is not a Sparkplug B payload: {}", topic, e.getMessage());
            return;
        }
        if (topic.equals(topics.ncmd())) {
            for (Payload.Metric m : p.getMetricsList()) {
                if (SparkplugPayloads.REBIRTH.equals(m.getName()) && m.hasBooleanValue() && m.getBooleanValue()) {
                    LOG.info("Sparkplug host asked for a rebirth on {}: publishing NBIRTH and DBIRTHs again", topic);
                    rebirth.set(true);
                } else {
                    LOG.warn("ignored the Sparkplug node command {} on {}: only {} is understood", m.getName(), topic,
                            SparkplugPayloads.REBIRTH);
                }
            }
        } else if (writer == null) {
            LOG.warn("refused a Sparkplug device command on {} ({} metrics): writes are off; --sparkplug-writes lets"
                    + " hosts execute the sensors' write commands", topic, p.getMetricsCount());
        } else {
            String device = topics.deviceOf(topic, "DCMD");
            for (Payload.Metric m : p.getMetricsList()) {
                write(device, m);
            }
        }
    }

    /** Executes a DCMD metric when it names a write command of the device; otherwise refuses it with a line saying why. */
    private void write(String device, Payload.Metric m) {
        String sensor = null;
        MetricSpec spec = null;
        synchronized (this) {
            for (Device d : devices.values()) {
                if (SparkplugTopics.device(d.id).equals(device)) {
                    sensor = d.id;
                    for (MetricSpec s : d.metrics.values()) {
                        if (s.name().equals(m.getName())
                                || !m.hasName() && m.hasAlias() && Long.valueOf(m.getAlias()).equals(aliases.get(key(d.id, s.name())))) {
                            spec = s;
                        }
                    }
                }
            }
        }
        String metric = m.hasName() ? m.getName() : "alias " + m.getAlias();
        String value = valueText(m);
        if (sensor == null || spec == null || !spec.writable() || value == null) {
            LOG.warn("refused a Sparkplug write to {} of device {}: {}", metric, device, sensor == null ? "no such device"
                    : spec == null ? "no such metric" : !spec.writable() ? "it is not a write command" : "no value");
            return;
        }
        LOG.info("Sparkplug host writes {}={} to {} ({} {})", spec.writeArgument(), value, sensor, spec.name(), metric);
        writer.write(sensor, spec.name(), spec.writeArgument(), value);
    }

    /** A metric's value as an argument's text, or null when it has none. */
    private static String valueText(Payload.Metric m) {
        return switch (m.getValueCase()) {
            case DOUBLE_VALUE -> java.math.BigDecimal.valueOf(m.getDoubleValue()).toPlainString();
            case FLOAT_VALUE -> Float.toString(m.getFloatValue());
            case LONG_VALUE -> Long.toString(m.getLongValue());
            case INT_VALUE -> Integer.toUnsignedString(m.getIntValue());
            case BOOLEAN_VALUE -> Boolean.toString(m.getBooleanValue());
            case STRING_VALUE -> m.getStringValue();
            default -> null;
        };
    }

    @Override
    public void control(Sender sender, boolean newConnection) throws MqttException {
        if (newConnection || rebirth.getAndSet(false)) {
            births(sender);
            return;
        }
        String dead;
        while ((dead = nextDeath()) != null) {
            send(sender, topics.ddeath(SparkplugTopics.device(dead)), SparkplugPayloads.ddeath(clock.millis(), seq.current()));
            pollDeath();
        }
        String unborn;
        while ((unborn = nextBirth()) != null) {
            dbirth(sender, unborn);
            bornNow(unborn);
        }
    }

    @Override
    public void forward(Sender sender, String topic, byte[] stored) throws MqttException {
        JsonNode r;
        try {
            r = JSON.readTree(stored);
        } catch (IOException e) {
            LOG.warn("dropped a stored message for {} that is not a reading: {}", topic, e.getMessage());
            return;
        }
        String sensor = r.path("sensor").asText();
        String command = r.path("command").asText();
        Sample sample = sample(r);
        MetricSpec spec;
        long alias;
        synchronized (this) {
            if (removed.contains(sensor)) {
                return;
            }
            Device d = devices.get(sensor);
            if (d == null || !d.metrics.containsKey(command)) {
                // A metric nobody declared (a sensor added before its commands were listed): it is
                // declared from the reading itself, and its DBIRTH goes first.
                define(sensor, List.of(new MetricSpec(command, typeOf(r.path("value")), r.path("unit").asText(), "")));
                d = devices.get(sensor);
            }
            spec = d.metrics.get(command);
            alias = aliases.get(key(sensor, command));
        }
        control(sender, false);
        send(sender, dataTopic(sensor), SparkplugPayloads.ddata(clock.millis(), seq.current(), alias, spec.type(), sample));
        synchronized (this) {
            Device d = devices.get(sensor);
            if (d != null) {
                d.latest.put(command, sample);
            }
        }
    }

    private void births(Sender sender) throws MqttException {
        seq.reset();
        try {
            send(sender, topics.nbirth(), SparkplugPayloads.nbirth(clock.millis(), seq.current(), currentBdSeq));
            for (String sensor : sensors()) {
                dbirth(sender, sensor);
            }
        } catch (MqttException | RuntimeException e) {
            rebirth.set(true);
            throw e;
        }
        synchronized (this) {
            toBirth.clear();
            toDeath.clear();
        }
    }

    private void dbirth(Sender sender, String sensor) throws MqttException {
        List<Born> metrics = new ArrayList<>();
        synchronized (this) {
            Device d = devices.get(sensor);
            if (d == null) {
                return;
            }
            for (MetricSpec m : d.metrics.values()) {
                metrics.add(new Born(m, aliases.get(key(sensor, m.name())), d.latest.get(m.name())));
            }
        }
        send(sender, topics.dbirth(SparkplugTopics.device(sensor)),
                SparkplugPayloads.dbirth(clock.millis(), seq.current(), metrics));
    }

    /** Publishes at QoS 0, not retained, as Sparkplug wants every message but NDEATH; then the seq moves on. */
    private void send(Sender sender, String topic, byte[] payload) throws MqttException {
        sender.publish(topic, payload, 0, false);
        seq.advance();
    }

    private synchronized List<String> sensors() {
        return new ArrayList<>(devices.keySet());
    }

    private synchronized String nextDeath() {
        return toDeath.peek();
    }

    private synchronized void pollDeath() {
        toDeath.poll();
    }

    private synchronized String nextBirth() {
        return toBirth.isEmpty() ? null : toBirth.iterator().next();
    }

    private synchronized void bornNow(String sensor) {
        toBirth.remove(sensor);
    }

    /** The alias of a metric: given once, kept for the life of the bridge, unique across the node. */
    private long alias(String sensor, String metric) {
        return aliases.computeIfAbsent(key(sensor, metric), k -> nextAlias++);
    }

    private static String key(String sensor, String metric) {
        return sensor + '\u0000' + metric;
    }

    /** A stored reading's time (the device's when it stamped one) and value (none unless its status is OK). */
    private static Sample sample(JsonNode r) {
        long micros = r.hasNonNull("deviceTimeMicros") ? r.get("deviceTimeMicros").asLong()
                : r.path("timestampMicros").asLong();
        JsonNode value = "OK".equals(r.path("status").asText()) ? r.get("value") : null;
        return new Sample(Math.floorDiv(micros, 1000L), value);
    }

    private static DataType typeOf(JsonNode value) {
        if (value == null || value.isNull() || value.isTextual()) {
            return DataType.STRING;
        }
        if (value.isBoolean()) {
            return DataType.BOOLEAN;
        }
        return value.isIntegralNumber() ? DataType.INT64 : DataType.DOUBLE;
    }
}
