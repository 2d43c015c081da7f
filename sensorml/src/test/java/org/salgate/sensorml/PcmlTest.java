package org.salgate.sensorml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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

    @Test
    void xxeIsRefused() {
        DocumentException e = assertThrows(DocumentException.class, () -> Pcml.read(
                "<?xml version=\"1.0\"?><!DOCTYPE platform SYSTEM \"http://127.0.0.1:1/evil.dtd\"><platform xmlns=\"urn:salgate:pcml:1.0\"/>"));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
    }
}
