package org.salgate.agent.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorUnavailableException;
import org.salgate.sensorml.Argument;
import org.salgate.sensorml.CommandDescription;
import org.salgate.plugin.spi.Measurement;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/**
 * Type {@code test}: sensors {@code <prefix>_0..n-1} (parameters {@code sensors}, {@code prefix}
 * default T). Commands: {@code read} (42 times argument {@code scale}, DECIMAL 0..10, default 1;
 * streamable 0..1 day), {@code slow} (streamable 100..10000 ms), {@code once} (not streamable),
 * {@code flag} (required BOOLEAN {@code on}), {@code count} (INTEGER {@code n} 1..5, optional,
 * no default). Parameter {@code throwing} lists sensors whose reads throw, {@code unavailable}
 * those that are unavailable, {@code blocking} those whose reads wait for {@link #RELEASE};
 * {@code failOpen=true} makes open fail. Sensors in {@link #UNPLUGGED} read as disconnected.
 */
public final class TestPlugin implements SensorPlugin {

    /** Reads of "blocking" sensors wait for this; tests replace it. */
    public static volatile CountDownLatch RELEASE = new CountDownLatch(0);
    /** How many reads are waiting on {@link #RELEASE}. */
    public static final java.util.concurrent.atomic.AtomicInteger BLOCKED = new java.util.concurrent.atomic.AtomicInteger();
    /** Sensors whose device is unplugged: their reads throw {@link SensorDisconnectedException}. */
    public static final Set<String> UNPLUGGED = ConcurrentHashMap.newKeySet();
    /** The unit the protocol gives the values of command {@code stamped}, not the one it declares. */
    public static final String STAMPED_UNIT = "Cel";
    /** The device time of the values of command {@code stamped}. */
    public static final long STAMPED_AT = 1_600_000_000_000_001L;
    /** Arguments of every execute, most recent last. */
    public static final List<Map<String, String>> ARGUMENTS = new CopyOnWriteArrayList<>();

    @Override
    public String type() {
        return "test";
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        if (Boolean.parseBoolean(config.parameter("failOpen", "false"))) {
            throw new PluginException("told to fail opening");
        }
        int n = Integer.parseInt(config.parameter("sensors", "3"));
        return new Protocol(config.name(), config.parameter("prefix", "T"), n, set(config, "throwing"),
                set(config, "unavailable"), set(config, "blocking"));
    }

    private static Set<String> set(ProtocolConfig c, String key) {
        return Arrays.stream(c.parameter(key, "").split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
    }

    static List<CommandDescription> commands() {
        return List.of(
                CommandDescription.builder("read").response("decimal", "1").streaming(SamplingBounds.ANY)
                        .argument(new Argument("scale", Argument.Type.DECIMAL, 0.0, 10.0, "1", true, "factor"))
                        .build(),
                CommandDescription.builder("slow").response("decimal", "1")
                        .streaming(new SamplingBounds(100, 10_000)).build(),
                CommandDescription.builder("once").response("decimal", "1").build(),
                CommandDescription.builder("flag").response("decimal", "1")
                        .argument(new Argument("on", Argument.Type.BOOLEAN, null, null, null, false, "")).build(),
                CommandDescription.builder("count").response("integer", "1")
                        .argument(new Argument("n", Argument.Type.INTEGER, 1.0, 5.0, null, true, "")).build(),
                CommandDescription.builder("plain").response("decimal", "").build(),
                CommandDescription.builder("stamped").response("decimal", "1").build());
    }

    static final class Protocol implements SensorProtocol {
        private final String name;
        private final Map<String, SensorDescription> sensors = new ConcurrentHashMap<>();
        private final List<String> order = new CopyOnWriteArrayList<>();
        private final Set<String> throwing;
        private final Set<String> unavailable;
        private final Set<String> blocking;

        Protocol(String name, String prefix, int n, Set<String> throwing, Set<String> unavailable,
                 Set<String> blocking) {
            this.name = name;
            this.throwing = throwing;
            this.unavailable = unavailable;
            this.blocking = blocking;
            for (int i = 0; i < n; i++) {
                add(describe(prefix + "_" + i));
            }
        }

        private SensorDescription describe(String id) {
            return new SensorDescription(id, "test sensor " + id, name, "",
                    List.of(Output.quantity("value", "http://example.org/value", "1")), SamplingBounds.ANY);
        }

        private void add(SensorDescription d) {
            sensors.put(d.id(), d);
            order.add(d.id());
        }

        @Override
        public List<SensorDescription> sensors() {
            List<SensorDescription> out = new ArrayList<>();
            for (String id : order) {
                out.add(sensors.get(id));
            }
            return out;
        }

        @Override
        public List<CommandDescription> commands(String sensorId) {
            return TestPlugin.commands();
        }

        @Override
        public Value execute(String sensorId, String commandId, Map<String, String> arguments) throws Exception {
            ARGUMENTS.add(arguments);
            if (throwing.contains(sensorId)) {
                throw new IllegalStateException("boom");
            }
            if (UNPLUGGED.contains(sensorId)) {
                throw new SensorDisconnectedException("the test device of " + sensorId + " is unplugged");
            }
            if (unavailable.contains(sensorId)) {
                throw new SensorUnavailableException("no such probe here");
            }
            if (blocking.contains(sensorId)) {
                BLOCKED.incrementAndGet();
                try {
                    RELEASE.await(30, TimeUnit.SECONDS);
                } finally {
                    BLOCKED.decrementAndGet();
                }
            }
            return Value.of(42.0 * Double.parseDouble(arguments.getOrDefault("scale", "1")));
        }

        /** {@code stamped} gives its values in STAMPED_UNIT, stamped at STAMPED_AT; the others as execute does. */
        @Override
        public Measurement measure(String sensorId, String commandId, Map<String, String> arguments) throws Exception {
            Measurement m = SensorProtocol.super.measure(sensorId, commandId, arguments);
            return commandId.equals("stamped") ? new Measurement(m.value(), STAMPED_UNIT, STAMPED_AT) : m;
        }

        @Override
        public SensorDescription addSensor(SensorDescription description) throws PluginException {
            if (sensors.containsKey(description.id())) {
                throw new PluginException("has " + description.id() + " already");
            }
            SensorDescription d = description.withProtocol(name);
            add(d);
            return d;
        }

        @Override
        public void removeSensor(String sensorId) throws PluginException {
            if (sensors.remove(sensorId) == null) {
                throw new PluginException("no " + sensorId);
            }
            order.remove(sensorId);
        }

        @Override
        public void close() {
        }
    }
}
