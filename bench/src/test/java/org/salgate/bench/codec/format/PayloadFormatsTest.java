package org.salgate.bench.codec.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.bench.codec.study.Address;
import org.salgate.bench.codec.study.Person;
import org.salgate.bench.codec.study.Poi;
import org.salgate.bench.codec.study.Pois;
import org.salgate.bench.codec.study.Sex;
import org.salgate.bench.codec.study.StudyData;

class PayloadFormatsTest {

    private static final long SEED = 42;
    private static final Address HOME = new Address("1 Rua Nova", "Porto", "4000-001", "Portugal");

    static Stream<PayloadFormat> formats() {
        return PayloadFormats.all().stream();
    }

    static Stream<Arguments> formatsAndPoiCounts() {
        return formats().flatMap(f -> Stream.of(0, 1, 250).map(n -> Arguments.of(f, n)));
    }

    @Test
    void allListsEveryFormatInReportOrder() {
        assertEquals(List.of("protobuf", "java", "msgpack", "json", "xml", "xml-stax", "xml-dom", "protobuf+gzip",
                "java+gzip", "msgpack+gzip", "json+gzip", "xml+gzip"), PayloadFormats.names());
        assertEquals("xml-dom", PayloadFormats.byName("xml-dom").name());
    }

    @ParameterizedTest(name = "{0} with {1} POIs")
    @MethodSource("formatsAndPoiCounts")
    void poisRoundTripToEqualRecords(PayloadFormat format, int count) throws IOException {
        Pois pois = StudyData.pois(count, SEED);
        assertEquals(pois, format.decode(format.encode(pois), Pois.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void personGraphsRoundTripToEqualRecords(PayloadFormat format) throws IOException {
        for (long seed = 1; seed <= 20; seed++) {
            Person person = StudyData.person(seed);
            assertEquals(person, format.decode(format.encode(person), Person.class), "seed " + seed);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void personsWithEmptyChildrenAndFriendsRoundTrip(PayloadFormat format) throws IOException {
        Person lonely = new Person("p", "Ana Silva", 0, Sex.FEMALE, HOME, List.of(), Map.of());
        Person onlyChildren = new Person("q", "Bruno Costa", 40, Sex.MALE, HOME, List.of(lonely), Map.of());
        Person onlyFriends = new Person("r", "", 7, Sex.MALE, HOME, List.of(), Map.of("q", onlyChildren));
        for (Person p : List.of(lonely, onlyChildren, onlyFriends)) {
            assertEquals(p, format.decode(format.encode(p), Person.class), p.id());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"xml-stax", "xml-dom"})
    void handWrittenXmlReadersWriteAndReadTheXmlDocument(String name) throws IOException {
        PayloadFormat xml = PayloadFormats.byName("xml");
        PayloadFormat reader = PayloadFormats.byName(name);
        Pois pois = StudyData.pois(250, SEED);
        Person person = StudyData.person(SEED);
        assertArrayEquals(xml.encode(pois), reader.encode(pois));
        assertEquals(pois, reader.decode(xml.encode(pois), Pois.class));
        assertEquals(person, reader.decode(xml.encode(person), Person.class));
    }

    @ParameterizedTest
    @ValueSource(strings = {"xml", "xml-stax", "xml-dom"})
    void xmlWithAnExternalEntityIsRefused(String name) {
        String doc = "<?xml version=\"1.0\"?><!DOCTYPE Person [<!ENTITY x SYSTEM \"file:///etc/hostname\">]>"
                + "<Person><id>&x;</id><name>n</name><age>1</age><sex>MALE</sex><address><street>s</street>"
                + "<city>c</city><zip>z</zip><country>k</country></address><children/><friends/></Person>";
        PayloadFormat format = PayloadFormats.byName(name);
        assertThrows(IOException.class, () -> format.decode(doc.getBytes(StandardCharsets.UTF_8), Person.class));
    }

    @ParameterizedTest
    @ValueSource(strings = {"protobuf", "java", "msgpack", "json", "xml"})
    void gzipShrinksTwoHundredFiftyPois(String inner) throws IOException {
        Pois pois = StudyData.pois(250, SEED);
        int plain = PayloadFormats.byName(inner).encode(pois).length;
        int gzipped = PayloadFormats.byName(inner + "+gzip").encode(pois).length;
        assertTrue(gzipped < plain, inner + ": gzip " + gzipped + " B, plain " + plain + " B");
    }

    @Test
    void protobufIsSmallerThanJsonForTwoHundredFiftyPois() throws IOException {
        Pois pois = StudyData.pois(250, SEED);
        int protobuf = PayloadFormats.byName("protobuf").encode(pois).length;
        int json = PayloadFormats.byName("json").encode(pois).length;
        assertTrue(protobuf < json, "protobuf " + protobuf + " B, json " + json + " B");
    }

    @Test
    void javaRefusesClassesOutsideTheAllowList() throws IOException {
        PayloadFormat java = PayloadFormats.byName("java");
        assertThrows(IOException.class, () -> java.decode(serialize(new Date(0)), Pois.class));
        assertThrows(IOException.class, () -> java.decode(serialize(new HashSet<>(Set.of("a"))), Pois.class));
        assertThrows(IOException.class, () -> java.decode(serialize(new Smuggled("x")), Person.class));
    }

    @Test
    void javaRefusesAnAllowedValueOfTheWrongType() throws IOException {
        PayloadFormat java = PayloadFormats.byName("java");
        byte[] person = java.encode(StudyData.person(SEED));
        assertThrows(IOException.class, () -> java.decode(person, Pois.class));
    }

    @Test
    void gzipRefusesPayloadsThatInflatePastTheLimit() throws IOException {
        PayloadFormat jsonGzip = PayloadFormats.byName("json+gzip");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(bytes)) {
            byte[] spaces = new byte[1024 * 1024];
            Arrays.fill(spaces, (byte) ' ');
            for (int i = 0; i <= GzipFormat.MAX_INFLATED_BYTES / spaces.length; i++) {
                out.write(spaces);
            }
        }
        IOException e = assertThrows(IOException.class, () -> jsonGzip.decode(bytes.toByteArray(), Pois.class));
        assertTrue(e.getMessage().contains("inflates to more than"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void malformedBytesGiveAnIOException(PayloadFormat format) throws IOException {
        byte[] pois = format.encode(StudyData.pois(3, SEED));
        byte[] person = format.encode(StudyData.person(3));
        byte[] garbage = "this is not a payload {<".getBytes(StandardCharsets.UTF_8);
        assertThrows(IOException.class, () -> format.decode(Arrays.copyOf(pois, pois.length / 2), Pois.class));
        assertThrows(IOException.class, () -> format.decode(Arrays.copyOf(person, person.length / 2), Person.class));
        assertThrows(IOException.class, () -> format.decode(garbage, Pois.class));
        assertThrows(IOException.class, () -> format.decode(garbage, Person.class));
        assertThrows(IOException.class, () -> format.decode(new byte[0], Person.class));
    }

    @Test
    void studyPoisCarryAboutSixHundredCharactersOfData() {
        Pois pois = StudyData.pois(250, SEED);
        double mean = pois.items().stream().mapToInt(Poi::dataChars).average().orElseThrow();
        assertTrue(mean >= 500 && mean <= 700, "mean POI data size " + mean + " chars");
    }

    private static byte[] serialize(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    private record Smuggled(String payload) implements Serializable {}
}
