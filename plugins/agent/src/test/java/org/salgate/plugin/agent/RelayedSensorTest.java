package org.salgate.plugin.agent;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;

class RelayedSensorTest {

    @Test
    void reIdentifiedDescriptionIsValidSensorMlAndKeepsTheLowerIdAsAddress() throws Exception {
        SensorDescription lower = SensorMl.read(SensorMl.write(new SensorDescription("DUMMY_0", "Dummy sensor 0",
                "dummy", "", List.of(Output.quantity("reading", "urn:salgate:def:dummy", "1")),
                new SamplingBounds(10, 60_000))));
        RelayedSensor relayed = RelayedSensor.of("lab.", "lab", lower, List.of());
        String xml = SensorMl.write(relayed.description());
        assertDoesNotThrow(() -> SensorMl.validate(xml), xml);
        SensorDescription back = SensorMl.read(xml);
        assertEquals("lab.DUMMY_0", back.id());
        assertEquals("lab", back.protocol());
        assertEquals("DUMMY_0", back.address());
        assertEquals("DUMMY_0", relayed.lowerId());
        assertEquals(lower.outputs(), back.outputs());
        assertEquals(lower.sampling(), back.sampling());
    }
}
