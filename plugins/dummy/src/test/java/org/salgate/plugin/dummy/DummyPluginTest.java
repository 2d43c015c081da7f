package org.salgate.plugin.dummy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

class DummyPluginTest {

    private static SensorProtocol open(Map<String, String> parameters) throws PluginException {
        return new DummyPlugin().open(new ProtocolConfig("dummy", "dummy", "virtual", parameters),
                TestContext.on("virtual"));
    }

    private static byte[] payload(SensorProtocol protocol, Map<String, String> args) throws Exception {
        return assertInstanceOf(Value.Bytes.class, protocol.execute("DUMMY_0", "payload", args)).value();
    }

    @Test
    void isFoundByServiceLoader() {
        boolean found = ServiceLoader.load(SensorPlugin.class).stream()
                .anyMatch(p -> p.get().type().equals("dummy"));
        assertTrue(found);
    }

    @Test
    void givesTwentySensorsByDefault() throws Exception {
        try (SensorProtocol protocol = open(Map.of())) {
            List<SensorDescription> sensors = protocol.sensors();
            assertEquals(20, sensors.size());
            assertEquals("DUMMY_0", sensors.get(0).id());
            assertEquals("DUMMY_19", sensors.get(19).id());
            assertEquals("dummy", sensors.get(0).protocol());
        }
    }

    @Test
    void givesAsManySensorsAsConfigured() throws Exception {
        try (SensorProtocol protocol = open(Map.of("sensors", "3"))) {
            assertEquals(List.of("DUMMY_0", "DUMMY_1", "DUMMY_2"),
                    protocol.sensors().stream().map(SensorDescription::id).toList());
        }
    }

    @Test
    void aPrefixNamesTheSensorsSoTwoDummyProtocolsCanShareAnAgent() throws Exception {
        try (SensorProtocol protocol = open(Map.of("sensors", "2", "prefix", "BENCH"))) {
            assertEquals(List.of("BENCH_0", "BENCH_1"),
                    protocol.sensors().stream().map(SensorDescription::id).toList());
            assertInstanceOf(Value.Num.class, protocol.execute("BENCH_1", "read", Map.of()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1ABC", "A B", "A/B"})
    void aPrefixThatCannotStartASensorIdIsRefused(String prefix) {
        PluginException e = assertThrows(PluginException.class, () -> open(Map.of("prefix", prefix)));
        assertTrue(e.getMessage().contains("prefix"), e.getMessage());
    }

    @Test
    void readIsTheSameConstantEveryTime() throws Exception {
        try (SensorProtocol protocol = open(Map.of())) {
            Value first = protocol.execute("DUMMY_0", "read", Map.of());
            assertInstanceOf(Value.Num.class, first);
            for (int i = 0; i < 5; i++) {
                assertEquals(first, protocol.execute("DUMMY_" + i, "read", Map.of()));
            }
        }
    }

    @Test
    void commandsAreReadPayloadAndRampAllStreamable() throws Exception {
        try (SensorProtocol protocol = open(Map.of("payloadBytes", "100"))) {
            List<CommandDescription> commands = protocol.commands("DUMMY_1");
            assertEquals(List.of("read", "payload", "ramp"), commands.stream().map(CommandDescription::id).toList());
            for (CommandDescription c : commands) {
                assertEquals(new SamplingBounds(0, 86_400_000L), c.streaming());
            }
            assertEquals("1", commands.get(0).responseUnit());
            assertEquals("100", commands.get(1).arguments().get(0).defaultValue());
        }
    }

    @Test
    void rampCountsUpByOneAtEachReadOfEachSensor() throws Exception {
        try (SensorProtocol protocol = open(Map.of())) {
            for (int i = 0; i < 4; i++) {
                assertEquals(Value.of((double) i), protocol.execute("DUMMY_0", "ramp", Map.of()));
            }
            assertEquals(Value.of(0.0), protocol.execute("DUMMY_1", "ramp", Map.of()), "each sensor has its own ramp");
        }
    }

    @Test
    void payloadGivesExactlySizeBytes() throws Exception {
        try (SensorProtocol protocol = open(Map.of())) {
            assertEquals(0, payload(protocol, Map.of("size", "0")).length);
            assertEquals(80_000, payload(protocol, Map.of("size", "80000")).length);
            assertEquals(16_777_216, payload(protocol, Map.of("size", "16777216")).length);
        }
    }

    @Test
    void payloadWithoutSizeUsesPayloadBytes() throws Exception {
        try (SensorProtocol protocol = open(Map.of("payloadBytes", "1000"))) {
            assertEquals(1000, payload(protocol, Map.of()).length);
        }
    }

    @Test
    void payloadOfOneSizeIsAllocatedOnce() throws Exception {
        try (SensorProtocol protocol = open(Map.of())) {
            assertSame(payload(protocol, Map.of("size", "80000")), payload(protocol, Map.of("size", "80000")));
            assertSame(payload(protocol, Map.of()), payload(protocol, Map.of()));
        }
    }

    @Test
    void payloadOutOfRangeIsRefusedClearly() throws Exception {
        try (SensorProtocol protocol = open(Map.of())) {
            PluginException e = assertThrows(PluginException.class,
                    () -> protocol.execute("DUMMY_0", "payload", Map.of("size", "16777217")));
            assertTrue(e.getMessage().contains("size"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "-1", "1.5", "99999999999", ""})
    void badSensorsParameterIsRefusedClearly(String bad) {
        PluginException e = assertThrows(PluginException.class, () -> open(Map.of("sensors", bad)));
        assertTrue(e.getMessage().startsWith("Parameter sensors of protocol dummy must be a whole number"),
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"lots", "-64", "16777217"})
    void badPayloadBytesParameterIsRefusedClearly(String bad) {
        PluginException e = assertThrows(PluginException.class, () -> open(Map.of("payloadBytes", bad)));
        assertTrue(e.getMessage().contains("payloadBytes"), e.getMessage());
    }

    @Test
    void wrongEndpointIsRefusedClearly() {
        PluginException e = assertThrows(PluginException.class, () -> new DummyPlugin().open(
                new ProtocolConfig("d", "dummy", "serial:/dev/ttyS0", Map.of()),
                new TestContext(new TestContext.TestEndpoint("serial", "/dev/ttyS0"))));
        assertEquals("Protocol d of type dummy needs the endpoint 'virtual', not 'serial:/dev/ttyS0'.", e.getMessage());
    }

    @Test
    void unknownCommandAndSensorAreRefusedClearly() throws Exception {
        try (SensorProtocol protocol = open(Map.of("sensors", "1"))) {
            PluginException command = assertThrows(PluginException.class,
                    () -> protocol.execute("DUMMY_0", "reboot", Map.of()));
            assertTrue(command.getMessage().contains("no command 'reboot'"), command.getMessage());
            PluginException sensor = assertThrows(PluginException.class,
                    () -> protocol.execute("DUMMY_7", "read", Map.of()));
            assertTrue(sensor.getMessage().contains("no sensor DUMMY_7"), sensor.getMessage());
            assertEquals(List.of(), protocol.commands("DUMMY_7"));
        }
    }

    @Test
    void addedSensorServesTheSameCommands() throws Exception {
        try (SensorProtocol protocol = open(Map.of("sensors", "2"))) {
            SensorDescription added = protocol.addSensor(new SensorDescription("EXTRA", "an extra one", "elsewhere", "",
                    List.of(), SamplingBounds.ANY));
            assertEquals("dummy", added.protocol());
            assertTrue(!added.outputs().isEmpty());
            assertEquals(3, protocol.sensors().size());
            assertEquals("EXTRA", protocol.sensors().get(2).id());
            assertEquals(protocol.commands("DUMMY_0"), protocol.commands("EXTRA"));
            assertEquals(protocol.execute("DUMMY_0", "read", Map.of()), protocol.execute("EXTRA", "read", Map.of()));
        }
    }

    @Test
    void addingAnExistingIdIsRefused() throws Exception {
        try (SensorProtocol protocol = open(Map.of("sensors", "2"))) {
            PluginException e = assertThrows(PluginException.class, () -> protocol.addSensor(
                    new SensorDescription("DUMMY_1", "", "dummy", "", List.of(), SamplingBounds.ANY)));
            assertTrue(e.getMessage().contains("already has a sensor DUMMY_1"), e.getMessage());
            assertEquals(2, protocol.sensors().size());
        }
    }

    @Test
    void removedSensorIsGone() throws Exception {
        try (SensorProtocol protocol = open(Map.of("sensors", "3"))) {
            protocol.removeSensor("DUMMY_1");
            assertEquals(List.of("DUMMY_0", "DUMMY_2"),
                    protocol.sensors().stream().map(SensorDescription::id).toList());
            assertThrows(PluginException.class, () -> protocol.execute("DUMMY_1", "read", Map.of()));
            PluginException again = assertThrows(PluginException.class, () -> protocol.removeSensor("DUMMY_1"));
            assertTrue(again.getMessage().contains("no sensor DUMMY_1"), again.getMessage());
        }
    }

    @Test
    @Timeout(30)
    void concurrentAddsAndReadsLoseNothing() throws Exception {
        try (SensorProtocol protocol = open(Map.of("sensors", "1"))) {
            int threads = 4;
            int perThread = 200;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < perThread; i++) {
                            protocol.addSensor(new SensorDescription("T" + thread + "_" + i, "", "dummy", "",
                                    List.of(), SamplingBounds.ANY));
                            assertInstanceOf(Value.Num.class, protocol.execute("DUMMY_0", "read", Map.of()));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(1 + threads * perThread, protocol.sensors().size());
            assertEquals(1 + threads * perThread,
                    protocol.sensors().stream().map(SensorDescription::id).distinct().count());
        }
    }
}
