package org.salgate.plugin.os;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.ProtocolConfig;
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
        FakeMetrics withProbe = new FakeMetrics();
        withProbe.temperature = 45.0;
        List<SensorDescription> sensors = new ArrayList<>(new OsProtocol("os", withProbe).sensors());
        try (SensorProtocol protocol = new OsPlugin().open(new ProtocolConfig("os", "os", "os", Map.of()),
                TestContext.on("os"))) {
            sensors.addAll(protocol.sensors());
            for (SensorDescription sensor : sensors) {
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
