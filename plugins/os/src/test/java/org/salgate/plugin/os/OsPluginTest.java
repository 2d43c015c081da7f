package org.salgate.plugin.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;
import oshi.SystemInfo;

/** The plugin on this machine, through real OSHI. */
class OsPluginTest {

    private static final List<String> SAL_SENSORS = List.of("FREE_MEMORY", "CPU_USER", "CPU_NICE", "CPU_SYSTEM",
            "CPU_IDLE", "LOAD_AVG_1", "LOAD_AVG_5", "LOAD_AVG_15");

    private static SensorProtocol protocol;

    @BeforeAll
    static void open() throws PluginException {
        protocol = new OsPlugin().open(new ProtocolConfig("os", "os", "os", Map.of()), TestContext.on("os"));
    }

    @AfterAll
    static void close() {
        protocol.close();
    }

    private static double read(String sensorId) throws Exception {
        return assertInstanceOf(Value.Num.class, protocol.execute(sensorId, "read", Map.of())).value();
    }

    @Test
    void isFoundByServiceLoader() {
        assertTrue(ServiceLoader.load(SensorPlugin.class).stream().anyMatch(p -> p.get().type().equals("os")));
    }

    @Test
    void servesTheEightSalSensorsAndATemperatureOnlyWithAProbe() {
        List<String> ids = protocol.sensors().stream().map(SensorDescription::id).toList();
        boolean probe = Temperatures.isPresent(new SystemInfo().getHardware().getSensors().getCpuTemperature());
        List<String> expected = new ArrayList<>(SAL_SENSORS);
        if (probe) {
            expected.add("CPU_TEMPERATURE");
        }
        assertEquals(expected, ids);
    }

    @Test
    void everySensorHasAStreamableReadWithAUnit() {
        for (SensorDescription sensor : protocol.sensors()) {
            List<CommandDescription> commands = protocol.commands(sensor.id());
            assertEquals(1, commands.size(), sensor.id());
            CommandDescription read = commands.get(0);
            assertEquals("read", read.id());
            assertTrue(read.streamable(), sensor.id());
            assertTrue(read.streaming().minIntervalMs() >= 10, sensor.id());
            assertTrue(!read.responseUnit().isEmpty(), sensor.id());
            assertEquals(sensor.sampling(), read.streaming(), sensor.id());
        }
        assertEquals("By", protocol.commands("FREE_MEMORY").get(0).responseUnit());
        assertEquals("%", protocol.commands("CPU_IDLE").get(0).responseUnit());
        assertEquals("1", protocol.commands("LOAD_AVG_5").get(0).responseUnit());
    }

    @Test
    void freeMemoryIsPositiveAndBelowTotal() throws Exception {
        long free = assertInstanceOf(Value.Int.class, protocol.execute("FREE_MEMORY", "read", Map.of())).value();
        long total = new SystemInfo().getHardware().getMemory().getTotal();
        assertTrue(free > 0 && free < total, free + " of " + total);
    }

    @Test
    void cpuPercentagesAreWithinRangeAndAddUpToAboutAHundred() throws Exception {
        double sum = 0;
        for (String id : List.of("CPU_USER", "CPU_NICE", "CPU_SYSTEM", "CPU_IDLE")) {
            double percent = read(id);
            assertTrue(percent >= 0 && percent <= 100, id + " = " + percent);
            sum += percent;
        }
        assertTrue(sum > 50 && sum <= 100.001, "sum " + sum);
    }

    @Test
    void loadAveragesAreNotNegative() throws Exception {
        for (String id : List.of("LOAD_AVG_1", "LOAD_AVG_5", "LOAD_AVG_15")) {
            double load = read(id);
            assertTrue(load >= 0, id + " = " + load);
        }
    }

    @Test
    void wrongEndpointIsRefusedClearly() {
        PluginException e = assertThrows(PluginException.class, () -> new OsPlugin().open(
                new ProtocolConfig("machine", "os", "virtual", Map.of()), TestContext.on("virtual")));
        assertEquals("Protocol machine of type os needs the endpoint 'os', not 'virtual'.", e.getMessage());
    }

    @Test
    void unknownSensorAndCommandAreRefusedClearly() {
        PluginException sensor = assertThrows(PluginException.class,
                () -> protocol.execute("GPU_FAN", "read", Map.of()));
        assertTrue(sensor.getMessage().contains("no OS sensor GPU_FAN"), sensor.getMessage());
        PluginException command = assertThrows(PluginException.class,
                () -> protocol.execute("CPU_IDLE", "reset", Map.of()));
        assertTrue(command.getMessage().contains("no command 'reset'"), command.getMessage());
    }

    @Test
    void sensorsCannotBeAddedOrRemoved() {
        assertThrows(PluginException.class, () -> protocol.removeSensor("CPU_IDLE"));
        assertTrue(protocol.sensors().stream().anyMatch(s -> s.id().equals("CPU_IDLE")));
    }
}
