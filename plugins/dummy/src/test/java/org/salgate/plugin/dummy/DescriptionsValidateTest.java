package org.salgate.plugin.dummy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;

class DescriptionsValidateTest {

    @Test
    void schemaRejectsAnInvalidDocument() {
        assertThrows(DocumentException.class, () -> SensorMl.validate("<sml:PhysicalComponent xmlns:sml=\""
                + SensorMl.NAMESPACE + "\"/>"));
    }

    @Test
    void everyDescriptionValidatesAndEveryCommandListRoundTrips() throws Exception {
        try (SensorProtocol protocol = new DummyPlugin().open(
                new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "3")), TestContext.on("virtual"))) {
            protocol.addSensor(new SensorDescription("EXTRA", "added", "dummy", "", List.of(), SamplingBounds.ANY));
            for (SensorDescription sensor : protocol.sensors()) {
                String xml = SensorMl.write(sensor);
                assertDoesNotThrow(() -> SensorMl.validate(xml), () -> sensor.id() + ":\n" + xml);
                List<CommandDescription> commands = protocol.commands(sensor.id());
                if (!commands.isEmpty()) {
                    assertEquals(commands, Cml.read(Cml.write(sensor.id(), commands)), sensor.id());
                }
            }
        }
    }
}
