package org.salgate.plugin.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.plugin.spi.SensorUnavailableException;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.model.Value;

/** The protocol's decisions, on figures set by the test. */
class OsProtocolTest {

    private final FakeMetrics metrics = new FakeMetrics();

    private boolean lists(OsProtocol protocol, String id) {
        return protocol.sensors().stream().anyMatch(s -> s.id().equals(id));
    }

    @Test
    void temperatureOfZeroOrNaNMeansNoTemperatureSensor() {
        metrics.temperature = 0.0;
        assertFalse(lists(new OsProtocol("os", metrics), "CPU_TEMPERATURE"));
        metrics.temperature = Double.NaN;
        assertFalse(lists(new OsProtocol("os", metrics), "CPU_TEMPERATURE"));
        assertEquals(8, new OsProtocol("os", metrics).sensors().size());
    }

    @Test
    void realTemperatureAddsATemperatureSensorInCelsius() throws Exception {
        metrics.temperature = 47.5;
        OsProtocol protocol = new OsProtocol("os", metrics);
        assertTrue(lists(protocol, "CPU_TEMPERATURE"));
        assertEquals("Cel", protocol.commands("CPU_TEMPERATURE").get(0).responseUnit());
        assertEquals(Value.of(47.5), protocol.execute("CPU_TEMPERATURE", "read", Map.of()));
    }

    @Test
    void temperatureLostAfterOpeningIsUnavailableNotZero() {
        metrics.temperature = 47.5;
        OsProtocol protocol = new OsProtocol("os", metrics);
        metrics.temperature = 0.0;
        assertThrows(SensorUnavailableException.class, () -> protocol.execute("CPU_TEMPERATURE", "read", Map.of()));
    }

    @Test
    void negativeLoadAverageIsUnavailableNotZero() throws Exception {
        metrics.loads = new double[] {-1, -1, -1};
        OsProtocol protocol = new OsProtocol("os", metrics);
        SensorUnavailableException e = assertThrows(SensorUnavailableException.class,
                () -> protocol.execute("LOAD_AVG_5", "read", Map.of()));
        assertEquals("This machine does not report a 5-minute load average.", e.getMessage());
    }

    @Test
    void loadAveragesComeFromTheirOwnSlot() throws Exception {
        OsProtocol protocol = new OsProtocol("os", metrics);
        assertEquals(Value.of(0.5), protocol.execute("LOAD_AVG_1", "read", Map.of()));
        assertEquals(Value.of(0.25), protocol.execute("LOAD_AVG_5", "read", Map.of()));
        assertEquals(Value.of(0.125), protocol.execute("LOAD_AVG_15", "read", Map.of()));
    }

    @Test
    void missingMemoryFiguresAreUnavailableNotZero() {
        metrics.total = 0;
        metrics.available = 0;
        OsProtocol protocol = new OsProtocol("os", metrics);
        assertThrows(SensorUnavailableException.class, () -> protocol.execute("FREE_MEMORY", "read", Map.of()));
    }

    @Test
    void missingCpuCountersAreUnavailableNotZero() {
        metrics.ticks = new long[8];
        OsProtocol protocol = new OsProtocol("os", metrics);
        assertThrows(SensorUnavailableException.class, () -> protocol.execute("CPU_USER", "read", Map.of()));
    }

    @Test
    void cpuSharesOfTheFirstReadCoverTheTimeSinceBoot() throws Exception {
        OsProtocol protocol = new OsProtocol("os", metrics);
        assertEquals(Value.of(10.0), protocol.execute("CPU_USER", "read", Map.of()));
        assertEquals(Value.of(85.0), protocol.execute("CPU_IDLE", "read", Map.of()));
    }

    @Test
    void cachedFiguresSetTheMinimumInterval() {
        metrics.maxAgeNanos = 300_000_000L;
        OsProtocol protocol = new OsProtocol("os", metrics);
        assertEquals(new SamplingBounds(300, 86_400_000L), protocol.commands("CPU_USER").get(0).streaming());
        assertEquals(new SamplingBounds(300, 86_400_000L), protocol.commands("FREE_MEMORY").get(0).streaming());
        assertEquals(new SamplingBounds(10, 86_400_000L), protocol.commands("LOAD_AVG_1").get(0).streaming());
    }
}
