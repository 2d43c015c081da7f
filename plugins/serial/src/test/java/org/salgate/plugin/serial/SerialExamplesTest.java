package org.salgate.plugin.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.ProtocolConfig;

/** The example configurations of docs/serial.md are accepted and read the lines the page shows. */
class SerialExamplesTest {

    private static LineParser parserOf(String example) throws Exception {
        List<ProtocolConfig> protocols = Pcml.read(Files.readString(Path.of("..", "..", "docs", "examples", example)))
                .protocols();
        assertEquals(1, protocols.size());
        ProtocolConfig config = protocols.get(0);
        assertEquals("serial", config.type());
        DeviceAddress.LocalPort port = (DeviceAddress.LocalPort) SerialPlugin.SERIAL.parse(
                config.endpoint().substring("serial:".length()));
        return SerialSettings.of(config, port.options()).parser(config);
    }

    @Test
    void theGpsExampleReadsTheReceiversFix() throws Exception {
        LineParser gps = parserOf("serial-gps.pcml");
        Map<String, ChannelValue> v = gps.parse(NmeaParserTest.GGA);
        assertEquals(Value.of(545.4), v.get("altitude").value());
        assertEquals(Value.of(22.4), gps.parse(NmeaParserTest.RMC).get("speed").value());
    }

    @Test
    void theWeatherExampleReadsTheStationsLine() throws Exception {
        Map<String, ChannelValue> v = parserOf("serial-weather.pcml").parse("T=21.5C H=40% P=1013.2hPa");
        assertEquals(Value.of(21.5), v.get("temperature").value());
        assertEquals(Value.of(40L), v.get("humidity").value());
        assertEquals(Value.of(1013.2), v.get("pressure").value());
    }
}
