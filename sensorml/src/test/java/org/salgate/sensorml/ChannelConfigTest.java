package org.salgate.sensorml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChannelConfigTest {

    private static final String HEAD = "<platform xmlns=\"urn:salgate:pcml:1.0\">"
            + "<protocol name=\"meter\" type=\"modbus\" endpoint=\"tcp:127.0.0.1:5020\">";
    private static final String TAIL = "</protocol></platform>";

    static ProtocolConfig meter() {
        return new ProtocolConfig("meter", "modbus", "tcp:127.0.0.1:5020", Map.of("unit-id", "1"), List.of(), List.of(),
                List.of(new ChannelConfig("voltage", "L1 to neutral", "V", 0.1, -2.5, ChannelConfig.Access.READ, null,
                                null, Map.of("table", "input", "address", "0", "type", "uint16")),
                        new ChannelConfig("setpoint", "", "Cel", 1, 0, ChannelConfig.Access.READ_WRITE, 5.0, 30.0,
                                Map.of("table", "holding", "address", "10")),
                        ChannelConfig.read("counter", "", Map.of())));
    }

    @Test
    void channelsRoundTripThroughPcmlWithEveryField() throws DocumentException {
        PlatformConfig platform = new PlatformConfig(List.of(meter()));
        assertEquals(platform, Pcml.read(Pcml.write(platform)));
    }

    @Test
    void channelDefaultsAreReadAccessScaleOneOffsetZero() throws DocumentException {
        ChannelConfig c = Pcml.read(HEAD + "<channel name=\"t\"/>" + TAIL).protocols().get(0).channels().get(0);
        assertEquals(new ChannelConfig("t", "", "", 1, 0, ChannelConfig.Access.READ, null, null, Map.of()), c);
    }

    @Test
    void eachChannelIsServedAsTheSensorProtocolDotChannel() {
        assertEquals("meter.voltage", meter().sensorId(meter().channels().get(0)));
    }

    @Test
    void scaleAndOffsetApplyToReadsAndInvertForWrites() {
        ChannelConfig voltage = meter().channels().get(0);
        assertEquals(2297.5, voltage.scaled(23000), 1e-9);
        assertEquals(23000, voltage.raw(2297.5), 1e-9);
    }

    @Test
    void scaledValuesAreTheDecimalsAPersonExpects() {
        ChannelConfig tenths = new ChannelConfig("v", "", "V", 0.1, 0, ChannelConfig.Access.READ_WRITE, null, null,
                Map.of());
        assertEquals("230.1", Double.toString(tenths.scaled(2301)));
        assertEquals("0.3", Double.toString(tenths.scaled(3)));
        assertEquals(2301.0, tenths.raw(230.1));
        ChannelConfig hundredths = new ChannelConfig("p", "", "kW", 0.01, 0, ChannelConfig.Access.READ_WRITE, null,
                null, Map.of());
        assertEquals(750.0, hundredths.raw(7.5));
        assertEquals("7.5", Double.toString(hundredths.scaled(750)));
    }

    @Test
    void channelConfiguredTwiceIsRefusedNamingIt() {
        DocumentException e = assertThrows(DocumentException.class,
                () -> Pcml.read(HEAD + "<channel name=\"t\"/><channel name=\"t\"/>" + TAIL));
        assertTrue(e.getMessage().contains("channel"), e.getMessage());
        IllegalArgumentException direct = assertThrows(IllegalArgumentException.class, () -> new ProtocolConfig("m",
                "modbus", "tcp:h:1", Map.of(), List.of(), List.of(),
                List.of(ChannelConfig.read("t", "", Map.of()), ChannelConfig.read("t", "", Map.of()))));
        assertTrue(direct.getMessage().contains("channel t of protocol m is configured twice"), direct.getMessage());
    }

    @Test
    void attributeNamedTwiceInAChannelIsRefused() {
        assertThrows(DocumentException.class, () -> Pcml.read(HEAD + "<channel name=\"t\"><attribute name=\"a\" value=\"1\"/>"
                + "<attribute name=\"a\" value=\"2\"/></channel>" + TAIL));
    }

    @Test
    void zeroScaleIsRefusedWithTheLine() {
        DocumentException e = assertThrows(DocumentException.class,
                () -> Pcml.read(HEAD + "\n<channel name=\"t\" scale=\"0\"/>" + TAIL));
        assertTrue(e.getMessage().contains("scale must be a finite number other than 0"), e.getMessage());
        assertEquals(2, e.line(), e.getMessage());
    }

    @Test
    void minAboveMaxIsRefused() {
        DocumentException e = assertThrows(DocumentException.class,
                () -> Pcml.read(HEAD + "<channel name=\"t\" access=\"write\" min=\"5\" max=\"1\"/>" + TAIL));
        assertTrue(e.getMessage().contains("min 5.0 is above max 1.0"), e.getMessage());
    }

    @Test
    void unknownAccessAndBadNamesAreRefused() {
        assertThrows(DocumentException.class, () -> Pcml.read(HEAD + "<channel name=\"t\" access=\"all\"/>" + TAIL));
        assertThrows(DocumentException.class, () -> Pcml.read(HEAD + "<channel name=\"a b\"/>" + TAIL));
        assertThrows(DocumentException.class, () -> Pcml.read(HEAD + "<channel name=\"t\" scale=\"ten\"/>" + TAIL));
        assertThrows(IllegalArgumentException.class, () -> ChannelConfig.Access.of("all"));
        assertThrows(IllegalArgumentException.class, () -> ChannelConfig.read(".hidden", "", Map.of()));
    }

    @Test
    void channelsComeAfterParametersAndBeforeSensors() {
        assertThrows(DocumentException.class, () -> Pcml.read(HEAD + "<channel name=\"t\"/><parameter name=\"a\" value=\"1\"/>"
                + TAIL));
    }
}
