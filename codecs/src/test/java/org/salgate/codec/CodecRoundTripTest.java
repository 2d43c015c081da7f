package org.salgate.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.salgate.codec.gzip.GzipCodec;
import org.salgate.model.Call;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.StreamData;
import org.salgate.model.Reading;
import org.salgate.wire.Codecs;
import org.salgate.wire.Message;
import org.salgate.wire.WireSamples;
import org.salgate.wire.Request;
import org.salgate.model.Result;
import org.salgate.wire.Response;
import org.salgate.model.Value;

class CodecRoundTripTest {

    static final Set<String> ADDED = Set.of("json", "msgpack", "xml", "xml-stax", "xml-dom", "java",
            "json+gzip", "msgpack+gzip", "xml+gzip", "java+gzip", "protobuf+gzip");

    static Stream<String> codecs() {
        return Codecs.available().keySet().stream();
    }

    static Stream<String> gzipCodecs() {
        return codecs().filter(n -> n.endsWith(GzipCodec.SUFFIX));
    }

    @Test
    void everyCodecOfThisModuleIsFoundByName() {
        assertTrue(Codecs.available().keySet().containsAll(ADDED), "found: " + Codecs.available().keySet());
        for (String name : ADDED) {
            assertEquals(name, Codecs.byName(name).name());
        }
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void everyMessageKindRoundTrips(String name) throws CodecException {
        Codec codec = Codecs.byName(name);
        for (Message m : WireSamples.everyMessage()) {
            byte[] bytes = codec.encode(m);
            assertEquals(m, codec.decode(bytes), name + " changed " + m);
            byte[] framed = new byte[bytes.length + 7];
            System.arraycopy(bytes, 0, framed, 3, bytes.length);
            assertEquals(m, codec.decode(framed, 3, bytes.length), name + " with an offset changed " + m);
        }
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void aDecodedMessageKeepsNothingOfTheArrayItCameFrom(String name) throws CodecException {
        Codec codec = Codecs.byName(name);
        for (Message m : WireSamples.everyMessage()) {
            byte[] bytes = codec.encode(m);
            byte[] framed = new byte[bytes.length + 7];
            System.arraycopy(bytes, 0, framed, 3, bytes.length);
            Message decoded = codec.decode(framed, 3, bytes.length);
            java.util.Arrays.fill(framed, (byte) 0x5a); // the frame reader reuses its array for the next read
            assertEquals(m, decoded, name + " kept bytes of the array it decoded " + m + " from");
        }
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void aLargePayloadRoundTrips(String name) throws CodecException {
        Codec codec = Codecs.byName(name);
        byte[] payload = new byte[81_920];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        Message m = new Response(1, new Result.Echoed(Value.of(payload)));
        assertEquals(m, codec.decode(codec.encode(m)));
    }

    static Stream<String> plainCodecs() {
        return codecs().filter(n -> !n.endsWith(GzipCodec.SUFFIX));
    }

    @ParameterizedTest
    @MethodSource("plainCodecs")
    void theLargestPayloadTheAgentAllowsRoundTrips(String name) throws CodecException {
        Codec codec = Codecs.byName(name);
        byte[] payload = new byte[16 * 1024 * 1024];
        for (int i = 0; i < payload.length; i += 4096) {
            payload[i] = (byte) i;
        }
        Message m = new Response(1, new Result.Echoed(Value.of(payload)));
        assertEquals(m, codec.decode(codec.encode(m)), name);
    }

    @ParameterizedTest
    @MethodSource("gzipCodecs")
    void gzipShrinksALargeTextPayload(String name) {
        Codec gzip = Codecs.byName(name);
        Codec plain = ((GzipCodec) gzip).inner();
        Message m = new Request(1, new Call.Echo(Value.of("temperature 21.5 C; ".repeat(5_000))));
        int plainSize = plain.encode(m).length;
        int gzipSize = gzip.encode(m).length;
        assertTrue(gzipSize * 10 < plainSize, name + ": " + gzipSize + " bytes against " + plainSize + " plain");
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void malformedBytesGiveCodecException(String name) {
        Codec codec = Codecs.byName(name);
        List<byte[]> garbage = List.of(new byte[0], new byte[] {0}, new byte[] {(byte) 0xff, 0x13, 0x7f},
                "{\"t\":\"request\"".getBytes(StandardCharsets.UTF_8),
                "<a><b>".getBytes(StandardCharsets.UTF_8), new byte[] {0x1f, (byte) 0x8b, 1, 2, 3},
                new byte[] {(byte) 0xac, (byte) 0xed, 0, 5, 0x73});
        for (byte[] g : garbage) {
            CodecException e = assertThrows(CodecException.class, () -> codec.decode(g),
                    name + " accepted " + g.length + " bytes of garbage");
            assertFalse(e.getMessage() == null || e.getMessage().isBlank(), name + " gave no reason");
        }
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void truncatedMessagesGiveCodecException(String name) {
        Codec codec = Codecs.byName(name);
        Request original = new Request(7, new Call.Execute("DUMMY_1", "payload", java.util.Map.of("size", "10")));
        byte[] whole = codec.encode(original);
        int refused = 0;
        for (int cut = 0; cut < whole.length; cut += Math.max(1, whole.length / 40)) {
            int length = cut;
            Object decoded;
            try {
                decoded = codec.decode(whole, 0, length);
            } catch (CodecException expected) {
                refused++;
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError(name + " threw " + e + " on a message cut at " + length, e);
            }
            // Protocol Buffers has no end marker: a message cut between two fields is a valid, shorter
            // message (the frame's length prefix is what tells them apart). It must not read as the
            // whole one. Every other format knows where its message ends and must refuse the cut.
            if (!name.equals("protobuf")) {
                throw new AssertionError(name + " decoded a message cut at " + length + " of " + whole.length
                        + " bytes without an error: " + decoded);
            }
            assertNotEquals(original, decoded, name + " decoded a message cut at " + length + " as the whole one");
        }
        assertTrue(refused > 0, name + " refused none of the cut messages");
    }

    @Test
    void textFormatsRejectUnknownKindsAndWrongShapes() {
        Codec json = Codecs.byName("json");
        String[] bad = {"{\"bogus\":{}}", "[1,2]", "{}", "{\"request\":{\"id\":1}}",
                "{\"request\":{\"id\":\"x\",\"listProtocols\":{}}}",
                "{\"request\":{\"id\":1,\"fly\":{}}}",
                "{\"request\":{\"id\":1,\"echo\":{\"num\":true}}}",
                "{\"request\":{\"id\":1,\"echo\":{\"num\":1.5,\"int\":2}}}",
                "{\"request\":{\"id\":-1,\"listProtocols\":{}}}",
                "{\"request\":{\"id\":18446744073709551616,\"listProtocols\":{}}}",
                "{\"request\":{\"id\":1,\"listSensors\":{\"activeOnly\":true,\"sensorId\":\"S\"}}}",
                "{\"request\":{\"id\":1,\"execute\":{\"sensorId\":\"S\",\"arguments\":"
                        + "[{\"key\":\"a\",\"value\":\"1\"},{\"key\":\"a\",\"value\":\"2\"}]}}}",
                "{\"response\":{\"id\":1,\"sensor\":{\"id\":\"X\",\"state\":\"SENSOR_STATE_FLYING\"}}}",
                "{\"response\":{\"id\":1,\"echoed\":{\"bytes\":\"not base64!\"}}}",
                "{\"streamData\":{\"streamId\":1,\"reading\":{\"sensorId\":\"S\",\"timestampMicros\":1,"
                        + "\"value\":{\"absent\":{}}}}}",
                "{\"streamEnded\":{\"streamId\":1,\"reason\":\"x\"}} trailing"};
        for (String b : bad) {
            CodecException e = assertThrows(CodecException.class, () -> json.decode(b.getBytes(StandardCharsets.UTF_8)), b);
            assertFalse(e.getMessage().isBlank());
        }
        assertInstanceOf(CodecException.class,
                assertThrows(CodecException.class, () -> Codecs.byName("xml").decode("<m><t>bogus</t></m>".getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void theLayoutNamesTheSchemasFieldsAndOmitsDefaultsButNotMapValues() throws CodecException {
        Codec json = Codecs.byName("json");
        Message m = new Request(7, new Call.Execute("S", "c", java.util.Map.of("b", "2", "a", "")));
        String expected = "{\"request\":{\"id\":7,\"execute\":{\"sensorId\":\"S\",\"commandId\":\"c\","
                + "\"arguments\":[{\"key\":\"a\",\"value\":\"\"},{\"key\":\"b\",\"value\":\"2\"}]}}}";
        assertEquals(expected, new String(json.encode(m), StandardCharsets.UTF_8));
        assertEquals(m, json.decode(expected.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aReadingsUnitDeviceTimeAndDisconnectedStatusAreNamedFieldsOfTheLayout() throws CodecException {
        Codec json = Codecs.byName("json");
        Message m = new StreamData(2, Reading.disconnected("m.v", 5, 1, "down").withUnit("V").withDeviceTime(4));
        String expected = "{\"streamData\":{\"streamId\":2,\"reading\":{\"sensorId\":\"m.v\",\"timestampMicros\":5,"
                + "\"sequence\":1,\"value\":{\"absent\":{}},\"status\":\"READING_STATUS_DISCONNECTED\","
                + "\"error\":\"down\",\"unit\":\"V\",\"deviceTimeMicros\":4}}}";
        assertEquals(expected, new String(json.encode(m), StandardCharsets.UTF_8));
        assertEquals(m, json.decode(expected.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void unsignedIdsAboveTheLargestLongRoundTrip(String name) throws CodecException {
        Codec codec = Codecs.byName(name);
        for (long id : new long[] {-1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            Message m = new Response(id, new Result.StreamHandle(id));
            assertEquals(m, codec.decode(codec.encode(m)), name + " changed " + m);
        }
    }
}
