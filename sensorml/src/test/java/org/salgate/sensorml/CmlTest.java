package org.salgate.sensorml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CmlTest {

    static List<CommandDescription> commands() {
        return List.of(
                CommandDescription.builder("payload")
                        .name("Payload")
                        .shortDescription("Returns bytes")
                        .longDescription("Returns <size> bytes & nothing else.\nSecond line.")
                        .argument(new Argument("size", Argument.Type.INTEGER, 0d, 16_777_216d, "64", true, "how many bytes"))
                        .argument(new Argument("scale", Argument.Type.DECIMAL, -0.5, 2.5e20, null, false, ""))
                        .argument(new Argument("label", Argument.Type.STRING, null, null, "", true, "may be empty"))
                        .argument(new Argument("fast", Argument.Type.BOOLEAN, null, null, "false", true, null))
                        .response("bytes", "By")
                        .streaming(SamplingBounds.ANY)
                        .build(),
                CommandDescription.builder("read").response("decimal", "").build());
    }

    @Test
    void writeThenReadKeepsEveryField() throws DocumentException {
        List<CommandDescription> commands = commands();
        assertEquals(commands, Cml.read(Cml.write(commands)));
        CommandDescription read = Cml.read(Cml.write(commands)).get(1);
        assertFalse(read.streamable());
        assertNull(read.streaming());
    }

    @Test
    void sensorIdIsKeptWhenGiven() throws DocumentException {
        CommandList list = Cml.readDocument(Cml.write("DUMMY_3", commands()));
        assertEquals("DUMMY_3", list.sensorId());
        assertEquals(commands(), list.commands());
        assertEquals("", Cml.readDocument(Cml.write(commands())).sensorId());
    }

    @Test
    void emptyCommandListRoundTrips() throws DocumentException {
        assertEquals(List.of(), Cml.read(Cml.write(List.of())));
    }

    @Test
    void duplicateCommandIdIsRefusedWithElementAndLine() {
        String xml = Cml.write(List.of(CommandDescription.builder("read").build(), CommandDescription.builder("read").build()));
        DocumentException e = assertThrows(DocumentException.class, () -> Cml.read(xml));
        assertTrue(e.getMessage().contains("command"), e.getMessage());
        assertTrue(e.getMessage().contains("read"), e.getMessage());
        assertTrue(e.line() > 2, e.getMessage());
    }

    @Test
    void unknownArgumentTypeIsRefusedNamingTheElement() {
        String xml = Cml.write(commands()).replace("type=\"integer\"", "type=\"float\"");
        DocumentException e = assertThrows(DocumentException.class, () -> Cml.read(xml));
        assertTrue(e.getMessage().contains("argument"), e.getMessage());
        assertTrue(e.getMessage().contains("float"), e.getMessage());
        assertEquals(SensorMlTest.lineOf(xml, "type=\"float\""), e.line(), e.getMessage());
    }

    @Test
    void missingResponseIsRefused() {
        String xml = Cml.write(commands()).replace("<response type=\"decimal\"/>", "");
        DocumentException e = assertThrows(DocumentException.class, () -> Cml.read(xml));
        assertTrue(e.getMessage().contains("response"), e.getMessage());
    }

    @Test
    void defaultOutsideTheBoundsIsRefused() {
        String xml = Cml.write(commands()).replace("default=\"64\"", "default=\"99999999\"");
        DocumentException e = assertThrows(DocumentException.class, () -> Cml.read(xml));
        assertTrue(e.getMessage().contains("size"), e.getMessage());
        assertTrue(e.getMessage().contains("maximum"), e.getMessage());
        assertEquals(SensorMlTest.lineOf(xml, "<argument "), e.line(), e.getMessage());
    }

    @Test
    void negativeStreamIntervalIsRefused() {
        String xml = Cml.write(commands()).replace("minIntervalMs=\"0\"", "minIntervalMs=\"-5\"");
        DocumentException e = assertThrows(DocumentException.class, () -> Cml.read(xml));
        assertTrue(e.getMessage().contains("streaming"), e.getMessage());
    }

    @Test
    void sensorMlDocumentIsNotAcceptedAsCml() {
        DocumentException e = assertThrows(DocumentException.class, () -> Cml.read(SensorMl.write(SensorMlTest.full())));
        assertTrue(e.getMessage().contains("sml:PhysicalComponent"), e.getMessage());
    }

    @Test
    void notWellFormedAndXxeAreRefused() {
        DocumentException e = assertThrows(DocumentException.class, () -> Cml.read("<commands xmlns=\"urn:salgate:cml:1.0\">"));
        assertTrue(e.getMessage().contains("not well-formed"), e.getMessage());
        DocumentException x = assertThrows(DocumentException.class, () -> Cml.read(
                "<!DOCTYPE c [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><commands xmlns=\"urn:salgate:cml:1.0\" sensor=\"&x;\"/>"));
        assertTrue(x.getMessage().contains("DOCTYPE"), x.getMessage());
    }
}
