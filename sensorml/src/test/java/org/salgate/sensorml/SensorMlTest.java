package org.salgate.sensorml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SensorMlTest {

    static SensorDescription full() {
        return new SensorDescription("OS_TEMP 1", "CPU package temperature <&> \"quoted\"", "os", "hwmon:/sys/0",
                List.of(Output.quantity("temperature", "http://qudt.org/vocab/quantitykind/Temperature", "Cel"),
                        new Output("processes", "urn:salgate:def:property:processes", Output.DataType.COUNT, ""),
                        new Output("state", "urn:salgate:def:property:state", Output.DataType.TEXT, ""),
                        new Output("payload", "urn:salgate:def:property:payload", Output.DataType.BINARY, ""),
                        Output.quantity("ratio", "urn:salgate:def:property:ratio", "")),
                new SamplingBounds(250, 3_600_000));
    }

    @Test
    void writeThenReadKeepsEveryField() throws DocumentException {
        SensorDescription d = full();
        assertEquals(d, SensorMl.read(SensorMl.write(d)));
    }

    @Test
    void writtenDocumentUsesGmlIdIdentifierAndUcumUnits() {
        String xml = SensorMl.write(full());
        assertTrue(xml.contains("gml:id=\"sensor-OS_TEMP_1\""), xml);
        assertTrue(xml.contains("<gml:identifier codeSpace=\"uniqueID\">OS_TEMP 1</gml:identifier>"), xml);
        assertTrue(xml.contains("<swe:uom code=\"Cel\"/>"), xml);
        assertTrue(xml.contains("<swe:value>250</swe:value>"), xml);
    }

    @ParameterizedTest
    @EnumSource(Output.DataType.class)
    void eachOutputTypeValidatesAgainstOfficialSchema(Output.DataType type) throws DocumentException {
        String unit = type == Output.DataType.QUANTITY ? "By" : "";
        for (String address : List.of("", "serial:/dev/ttyUSB0")) {
            SensorDescription d = new SensorDescription("S1", "one output", "p", address,
                    List.of(new Output("out", "urn:salgate:def:out", type, unit)), SamplingBounds.ANY);
            String xml = SensorMl.write(d);
            SensorMl.validate(xml);
            assertEquals(d, SensorMl.read(xml));
            assertEquals(!address.isEmpty(), xml.contains(SensorMl.ADDRESS_DEFINITION), xml);
        }
    }

    @Test
    void minimalDescriptionWithoutDescriptionAddressOrOutputsRoundTrips() throws DocumentException {
        SensorDescription d = new SensorDescription("DUMMY_0", "", "", "", List.of(), new SamplingBounds(0, 0));
        String xml = SensorMl.write(d);
        SensorMl.validate(xml);
        assertEquals(d, SensorMl.read(xml));
    }

    @Test
    void unitUriIsWrittenAsHrefAndReadBack() throws DocumentException {
        SensorDescription d = new SensorDescription("S1", "", "p", "", List.of(
                Output.quantity("level", "urn:salgate:def:level", "http://www.opengis.net/def/uom/OGC/1.0/unity")),
                SamplingBounds.ANY);
        String xml = SensorMl.write(d);
        assertTrue(xml.contains("xlink:href=\"http://www.opengis.net/def/uom/OGC/1.0/unity\""), xml);
        assertEquals(d, SensorMl.read(xml));
    }

    @Test
    void outputNameThatIsNotAnNcNameIsRefusedOnWrite() {
        SensorDescription d = new SensorDescription("S1", "", "p", "",
                List.of(Output.quantity("free memory", "urn:salgate:def:mem", "By")), SamplingBounds.ANY);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SensorMl.write(d));
        assertTrue(e.getMessage().contains("free memory"), e.getMessage());
    }

    @Test
    void unicodeTextAndOddDefinitionsStillValidate() throws DocumentException {
        SensorDescription d = new SensorDescription("capteur-é", "température \uD83C\uDF21 ", "p", "adresse é",
                List.of(Output.quantity("température", "urn:x:def with space", "Cel")), SamplingBounds.ANY);
        assertEquals(d, SensorMl.read(SensorMl.write(d)));
    }

    @Test
    void controlCharactersAreReplacedSoTheDocumentStaysReadable() throws DocumentException {
        SensorDescription d = new SensorDescription("S\u0001", "bell\u0007", "p", "", List.of(), SamplingBounds.ANY);
        SensorDescription back = SensorMl.read(SensorMl.write(d));
        assertEquals("S\uFFFD", back.id());
        assertEquals("bell\uFFFD", back.description());
    }

    @Test
    void handWrittenDocumentWithExtraSensorMlElementsIsRead() throws DocumentException {
        String xml = """
                <?xml version="1.0"?>
                <sml:PhysicalComponent xmlns:sml="http://www.opengis.net/sensorml/2.0"
                    xmlns:swe="http://www.opengis.net/swe/2.0" xmlns:gml="http://www.opengis.net/gml/3.2"
                    gml:id="t1">
                  <gml:identifier codeSpace="uniqueID">  T1  </gml:identifier>
                  <gml:name>Thermometer</gml:name>
                  <sml:keywords><sml:KeywordList><sml:keyword>temperature</sml:keyword></sml:KeywordList></sml:keywords>
                  <sml:identification>
                    <sml:IdentifierList>
                      <sml:identifier>
                        <sml:Term definition="http://sensorml.com/ont/swe/property/Manufacturer">
                          <sml:label>Manufacturer</sml:label><sml:value>ACME</sml:value>
                        </sml:Term>
                      </sml:identifier>
                      <sml:identifier>
                        <sml:Term definition="urn:salgate:def:identifier:protocol">
                          <sml:label>Protocol</sml:label><sml:value>serial</sml:value>
                        </sml:Term>
                      </sml:identifier>
                    </sml:IdentifierList>
                  </sml:identification>
                  <sml:outputs>
                    <sml:OutputList>
                      <sml:output name="t">
                        <swe:Quantity definition="http://qudt.org/vocab/quantitykind/Temperature">
                          <swe:label>Temperature</swe:label>
                          <swe:uom code="Cel"/>
                        </swe:Quantity>
                      </sml:output>
                    </sml:OutputList>
                  </sml:outputs>
                </sml:PhysicalComponent>
                """.strip();
        SensorDescription d = SensorMl.read(xml);
        assertEquals("T1", d.id());
        assertEquals("serial", d.protocol());
        assertEquals("", d.description());
        assertEquals(SamplingBounds.ANY, d.sampling());
        assertEquals(List.of(Output.quantity("t", "http://qudt.org/vocab/quantitykind/Temperature", "Cel")), d.outputs());
    }

    @Test
    void wrongElementOrderIsRefusedWithElementAndLine() {
        String xml = SensorMl.write(full());
        // gml:description must come before gml:identifier.
        String description = "  <gml:description>CPU package temperature &lt;&amp;&gt; \"quoted\"</gml:description>\n";
        assertTrue(xml.contains(description), xml);
        String swapped = xml.replace(description, "")
                .replace("</gml:identifier>\n", "</gml:identifier>\n" + description);
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(swapped));
        assertEquals(4, e.line(), e.getMessage());
        assertTrue(e.column() > 0);
        assertTrue(e.getMessage().contains("gml:description"), e.getMessage());
        assertTrue(e.getMessage().contains("line 4"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
    }

    @Test
    void missingGmlIdIsRefused() {
        String xml = SensorMl.write(full()).replace(" gml:id=\"sensor-OS_TEMP_1\"", "");
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.validate(xml));
        assertEquals(2, e.line(), e.getMessage());
        assertTrue(e.getMessage().contains("sml:PhysicalComponent"), e.getMessage());
        assertTrue(e.getMessage().contains("'id'"), e.getMessage());
    }

    @Test
    void invalidValueTypeIsRefusedNamingTheElement() {
        String xml = SensorMl.write(full()).replace("<swe:value>250</swe:value>", "<swe:value>fast</swe:value>");
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
        assertTrue(e.getMessage().contains("swe:value"), e.getMessage());
        assertTrue(e.getMessage().contains("fast"), e.getMessage());
        assertTrue(e.line() > 20, e.getMessage());
    }

    @Test
    void notWellFormedDocumentIsRefusedWithLine() {
        String xml = SensorMl.write(full()).replace("</sml:identification>", "</sml:identificatio>");
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
        assertTrue(e.getMessage().contains("not well-formed"), e.getMessage());
        assertTrue(e.getMessage().contains("sml:identification"), e.getMessage());
        assertEquals(lineOf(xml, "</sml:identificatio>"), e.line(), e.getMessage());
    }

    @Test
    void truncatedDocumentIsRefused() {
        String xml = SensorMl.write(full());
        DocumentException e = assertThrows(DocumentException.class,
                () -> SensorMl.read(xml.substring(0, xml.length() / 2)));
        assertTrue(e.getMessage().contains("not well-formed"), e.getMessage());
        assertTrue(e.line() > 0, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<r>&xxe;</r>",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY % p SYSTEM \"http://127.0.0.1:1/x.dtd\"> %p;]>\n<r/>",
            "<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><r>&b;</r>"})
    void doctypeAndExternalEntitiesAreRefused(String payload) {
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(payload));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
        assertFalse(e.getMessage().contains("root:"), e.getMessage());
    }

    @Test
    void xxeInsideAValidLookingDescriptionIsRefused() {
        String xml = SensorMl.write(full())
                .replace("<sml:PhysicalComponent", "<!DOCTYPE sml:PhysicalComponent [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<sml:PhysicalComponent")
                .replace("<sml:value>os</sml:value>", "<sml:value>&x;</sml:value>");
        assertThrows(DocumentException.class, () -> SensorMl.read(xml));
    }

    @Test
    void schemaHintsInADocumentAreNeverFetched() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String url = "http://127.0.0.1:" + listener.getLocalPort() + "/evil.xsd";
            String xml = SensorMl.write(full())
                    .replace("xsi:schemaLocation=\"", "xsi:schemaLocation=\"urn:evil " + url + " ")
                    .replace("<sml:identification>", "<sml:extension><e:x xmlns:e=\"urn:evil\"/></sml:extension>\n  <sml:identification>");
            assertEquals(full(), SensorMl.read(xml));
            listener.setSoTimeout(200);
            // A fetch would have connected during read; the connection would now be queued.
            assertThrows(SocketTimeoutException.class, listener::accept);
        }
    }

    @Test
    void externalDtdIsRefusedWithoutBeingFetched() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"http://127.0.0.1:" + listener.getLocalPort()
                    + "/evil.dtd\">\n<r>&ent;</r>";
            DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
            assertEquals(2, e.line(), e.getMessage());
            listener.setSoTimeout(200);
            assertThrows(SocketTimeoutException.class, listener::accept);
        }
    }

    @Test
    void oversizedDocumentIsRefusedBeforeParsing() {
        String xml = "<a>" + "x".repeat(XmlInput.MAX_CHARS) + "</a>";
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
        assertTrue(e.getMessage().contains("limit"), e.getMessage());
    }

    @Test
    void emptyDocumentIsRefused() {
        assertThrows(DocumentException.class, () -> SensorMl.read(""));
        assertThrows(DocumentException.class, () -> SensorMl.read(null));
    }

    @Test
    void missingIdentifierIsRefused() {
        String xml = SensorMl.write(full()).replace("<gml:identifier codeSpace=\"uniqueID\">OS_TEMP 1</gml:identifier>", "");
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
        assertTrue(e.getMessage().contains("gml:identifier"), e.getMessage());
        assertTrue(e.getMessage().contains("sml:PhysicalComponent"), e.getMessage());
        assertEquals(2, e.line(), e.getMessage());
    }

    @Test
    void missingProtocolTermIsRefused() {
        String xml = SensorMl.write(full()).replace(SensorMl.PROTOCOL_DEFINITION, "urn:other");
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
        assertTrue(e.getMessage().contains(SensorMl.PROTOCOL_DEFINITION), e.getMessage());
    }

    @Test
    void otherProcessTypeIsRefused() {
        String xml = """
                <sml:SimpleProcess xmlns:sml="http://www.opengis.net/sensorml/2.0"
                    xmlns:gml="http://www.opengis.net/gml/3.2" gml:id="p1">
                  <gml:identifier codeSpace="uniqueID">P1</gml:identifier>
                </sml:SimpleProcess>""";
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
        assertTrue(e.getMessage().contains("sml:SimpleProcess"), e.getMessage());
        assertTrue(e.getMessage().contains("PhysicalComponent"), e.getMessage());
    }

    @Test
    void unsupportedOutputComponentIsRefusedNamingIt() {
        String xml = SensorMl.write(full()).replace("<swe:Text definition=\"urn:salgate:def:property:state\"/>",
                "<swe:Boolean definition=\"urn:salgate:def:property:state\"/>");
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
        assertTrue(e.getMessage().contains("swe:Boolean"), e.getMessage());
        assertEquals(lineOf(xml, "<swe:Boolean"), e.line(), e.getMessage());
    }

    @Test
    void samplingIntervalInOtherUnitIsRefused() {
        String xml = SensorMl.write(full()).replaceFirst("<swe:uom code=\"ms\"/>", "<swe:uom code=\"s\"/>");
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
        assertTrue(e.getMessage().contains("milliseconds"), e.getMessage());
    }

    @Test
    void invertedSamplingBoundsAreRefused() {
        String xml = SensorMl.write(full()).replace("<swe:value>3600000</swe:value>", "<swe:value>10</swe:value>");
        DocumentException e = assertThrows(DocumentException.class, () -> SensorMl.read(xml));
        assertTrue(e.getMessage().contains("shorter"), e.getMessage());
    }

    @Test
    void concurrentValidationFromSeveralThreadsAgrees() throws Exception {
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int n = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        SensorDescription d = new SensorDescription("S" + n + "_" + i, "d", "p", "a" + i,
                                full().outputs(), new SamplingBounds(i, 1000L + i));
                        if (!d.equals(SensorMl.read(SensorMl.write(d)))) {
                            return false;
                        }
                        String bad = SensorMl.write(d).replace(" gml:id=", " gml:idx=");
                        try {
                            SensorMl.validate(bad);
                            return false;
                        } catch (DocumentException expected) {
                            if (expected.line() != 2) {
                                return false;
                            }
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> r : results) {
                assertTrue(r.get(50, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static int lineOf(String xml, String needle) {
        int index = xml.indexOf(needle);
        assertTrue(index >= 0, needle);
        return (int) xml.substring(0, index).chars().filter(c -> c == '\n').count() + 1;
    }
}
