package org.salgate.sensorml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PcmlTest {

    static PlatformConfig platform() {
        return new PlatformConfig(List.of(
                new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "20", "payloadBytes", "64")),
                new ProtocolConfig("os", "os", "os", Map.of()),
                new ProtocolConfig("serial-1", "modbus", "serial:/dev/ttyUSB0",
                        Map.of("note", "quotes \" & <angles> 'apostrophes'", "empty", ""))));
    }

    @Test
    void writeThenReadKeepsEveryField() throws DocumentException {
        assertEquals(platform(), Pcml.read(Pcml.write(platform())));
    }

    @Test
    void emptyPlatformRoundTrips() throws DocumentException {
        assertEquals(new PlatformConfig(List.of()), Pcml.read(Pcml.write(new PlatformConfig(List.of()))));
    }

    @Test
    void parametersAreWrittenInNameOrder() {
        String xml = Pcml.write(platform());
        assertTrue(xml.indexOf("payloadBytes") < xml.indexOf("sensors"), xml);
    }

    @Test
    void duplicateProtocolNameIsRefused() {
        String xml = Pcml.write(new PlatformConfig(List.of(
                new ProtocolConfig("a", "dummy", "virtual", Map.of()), new ProtocolConfig("a", "os", "os", Map.of()))));
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(xml));
        assertTrue(e.getMessage().contains("protocol"), e.getMessage());
        assertEquals(SensorMlTest.lineOf(xml, "type=\"os\""), e.line(), e.getMessage());
    }

    @Test
    void missingTypeIsRefusedNamingTheElement() {
        String xml = Pcml.write(platform()).replace(" type=\"os\"", "");
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(xml));
        assertTrue(e.getMessage().contains("'type'"), e.getMessage());
        assertTrue(e.getMessage().contains("protocol"), e.getMessage());
        assertEquals(SensorMlTest.lineOf(xml, "name=\"os\""), e.line(), e.getMessage());
    }

    @Test
    void blankNameIsRefused() {
        String xml = Pcml.write(platform()).replace("name=\"os\"", "name=\"  \"");
        assertThrows(DocumentException.class, () -> Pcml.read(xml));
    }

    @Test
    void wrongNamespaceIsRefused() {
        String xml = Pcml.write(platform()).replace(Pcml.NAMESPACE, "urn:other");
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(xml));
        assertTrue(e.getMessage().contains("platform"), e.getMessage());
    }

    @Test
    void unknownElementIsRefused() {
        String xml = Pcml.write(platform()).replace("<parameter name=\"sensors\"", "<param name=\"sensors\"");
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(xml));
        assertTrue(e.getMessage().contains("param"), e.getMessage());
        assertTrue(e.line() > 0, e.getMessage());
    }

    /** A protocol with a sensor added at run time and one removed, as a user would write it. */
    static final String CHANGED = """
            <?xml version="1.0" encoding="UTF-8"?>
            <platform xmlns="urn:salgate:pcml:1.0" xmlns:sml="http://www.opengis.net/sensorml/2.0"
                      xmlns:swe="http://www.opengis.net/swe/2.0" xmlns:gml="http://www.opengis.net/gml/3.2">
              <protocol name="dummy" type="dummy" endpoint="virtual">
                <parameter name="sensors" value="5"/>
                <sensor>
                  <sml:PhysicalComponent gml:id="sensor-DUMMY_EXTRA">
                    <gml:description>An extra dummy sensor</gml:description>
                    <gml:identifier codeSpace="uniqueID">DUMMY_EXTRA</gml:identifier>
                    <sml:identification>
                      <sml:IdentifierList>
                        <sml:identifier>
                          <sml:Term definition="urn:salgate:def:identifier:protocol">
                            <sml:label>Protocol</sml:label>
                            <sml:value>dummy</sml:value>
                          </sml:Term>
                        </sml:identifier>
                      </sml:IdentifierList>
                    </sml:identification>
                    <sml:outputs>
                      <sml:OutputList>
                        <sml:output name="value">
                          <swe:Quantity definition="urn:salgate:def:property:dummyConstant">
                            <swe:uom code="1"/>
                          </swe:Quantity>
                        </sml:output>
                      </sml:OutputList>
                    </sml:outputs>
                  </sml:PhysicalComponent>
                </sensor>
                <removedSensor id="DUMMY_3"/>
              </protocol>
              <protocol name="os" type="os" endpoint="os"/>
            </platform>
            """;

    @Test
    void sensorsAddedAndRemovedAtRunTimeRoundTrip() throws DocumentException {
        PlatformConfig read = Pcml.read(CHANGED);
        ProtocolConfig dummy = read.protocols().get(0);
        assertEquals(Map.of("sensors", "5"), dummy.parameters());
        assertEquals(List.of(new SensorDescription("DUMMY_EXTRA", "An extra dummy sensor", "dummy", "",
                List.of(Output.quantity("value", "urn:salgate:def:property:dummyConstant", "1")), SamplingBounds.ANY)),
                dummy.addedSensors());
        assertEquals(List.of("DUMMY_3"), dummy.removedSensors());
        assertEquals(List.of(), read.protocols().get(1).addedSensors());
        assertEquals(read, Pcml.read(Pcml.write(read)));
    }

    @Test
    void everyFieldOfAnAddedSensorRoundTrips() throws DocumentException {
        SensorDescription full = SensorMlTest.full().withProtocol("os");
        PlatformConfig platform = new PlatformConfig(List.of(new ProtocolConfig("os", "os", "os", Map.of(),
                List.of(full), List.of("OS_CPU", "OS MEM"))));
        assertEquals(platform, Pcml.read(Pcml.write(platform)));
    }

    @Test
    void writtenSensorIsNestedIndentedXml() throws DocumentException {
        String xml = Pcml.write(Pcml.read(CHANGED));
        assertFalse(xml.contains("&lt;"), xml);
        assertTrue(xml.contains("\n    <sensor>\n      <sml:PhysicalComponent "), xml);
        assertTrue(xml.contains("\n        <gml:identifier codeSpace=\"uniqueID\">DUMMY_EXTRA</gml:identifier>\n"), xml);
        assertTrue(xml.contains("\n    </sensor>\n    <removedSensor id=\"DUMMY_3\"/>\n  </protocol>"), xml);
    }

    @Test
    void sensorHoldingInvalidSensorMlIsRefusedNamingTheElementAndLine() {
        String xml = CHANGED.replace("<swe:uom code=\"1\"/>", "<swe:uom code=\"1\"/><swe:value>x</swe:value>");
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(xml));
        assertTrue(e.getMessage().startsWith("The PCML document does not match its schema at element swe:value: "),
                e.getMessage());
        assertTrue(e.getMessage().contains("'x' is not a valid value for 'double'"), e.getMessage());
        assertEquals(SensorMlTest.lineOf(xml, "<swe:value>x"), e.line(), e.getMessage());
    }

    @Test
    void sensorWithoutWhatSalgateNeedsIsRefusedNamingWhatToAdd() {
        String xml = CHANGED.replace("urn:salgate:def:identifier:protocol", "urn:other");
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(xml));
        assertTrue(e.getMessage().contains("At element sml:PhysicalComponent: the sensor has no protocol; add"),
                e.getMessage());
        assertEquals(SensorMlTest.lineOf(xml, "<sml:PhysicalComponent"), e.line(), e.getMessage());
    }

    @Test
    void sensorServedByAnotherProtocolIsRefused() {
        String xml = CHANGED.replace("<sml:value>dummy</sml:value>", "<sml:value>os</sml:value>");
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(xml));
        assertTrue(e.getMessage().contains("sensor DUMMY_EXTRA names protocol os but is added to protocol dummy;"
                + " make its protocol term dummy"), e.getMessage());
    }

    @Test
    void sensorRemovedTwiceIsRefused() {
        String xml = CHANGED.replace("<removedSensor id=\"DUMMY_3\"/>",
                "<removedSensor id=\"DUMMY_3\"/><removedSensor id=\"DUMMY_3\"/>");
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(xml));
        assertTrue(e.getMessage().contains("DUMMY_3"), e.getMessage());
    }

    @Test
    void sensorAddedTwiceIsRefused() {
        String sensor = CHANGED.substring(CHANGED.indexOf("    <sensor>"), CHANGED.indexOf("    <removedSensor"));
        String xml = CHANGED.replace(sensor, sensor + sensor.replace("sensor-DUMMY_EXTRA", "other"));
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(xml));
        assertTrue(e.getMessage().contains("sensor DUMMY_EXTRA is added to protocol dummy twice"), e.getMessage());
    }

    @Test
    void sensorsWhoseIdsMakeTheSameGmlIdAreWrittenReadably() throws DocumentException {
        SensorDescription a = new SensorDescription("T 1", "", "test", "", List.of(), SamplingBounds.ANY);
        SensorDescription b = new SensorDescription("T_1", "", "other", "", List.of(), SamplingBounds.ANY);
        PlatformConfig platform = new PlatformConfig(List.of(
                new ProtocolConfig("test", "test", "virtual", Map.of(), List.of(a), List.of()),
                new ProtocolConfig("other", "test", "virtual", Map.of(), List.of(b), List.of())));
        assertEquals(platform, Pcml.read(Pcml.write(platform)));
    }

    @Test
    void sensorMlDocumentIsNotAPlatform() {
        DocumentException e = assertThrows(DocumentException.class,
                () -> Pcml.read(SensorMl.write(SensorMlTest.full())));
        assertTrue(e.getMessage().contains("send a PCML document"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform.pcml", "more-dummies.pcml", "upper-agent.pcml"})
    void configurationsWithoutSensorChangesStayValid(String name) throws Exception {
        try (InputStream in = PcmlTest.class.getResourceAsStream("DocumentFuzzTestInputs/pcml/" + name)) {
            PlatformConfig read = Pcml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            assertFalse(read.protocols().isEmpty());
            assertTrue(read.protocols().stream().allMatch(p -> p.addedSensors().isEmpty() && p.removedSensors().isEmpty()));
        }
    }

    @Test
    void xxeIsRefused() {
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(
                "<?xml version=\"1.0\"?><!DOCTYPE platform SYSTEM \"http://127.0.0.1:1/evil.dtd\"><platform xmlns=\"urn:salgate:pcml:1.0\"/>"));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
    }
}
