package org.salgate.wire;

import org.salgate.model.Value;
import org.salgate.model.Reading;
import org.salgate.model.Call;
import org.salgate.model.Result;
import org.salgate.model.ErrorCode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ProtobufCodecTest {

    private final Codec codec = Codecs.defaultCodec();

    @Test
    void everyMessageKindRoundTrips() throws CodecException {
        for (Message m : WireSamples.everyMessage()) {
            assertEquals(m, codec.decode(codec.encode(m)), () -> "round trip of " + m);
        }
    }

    @Test
    void decodesFromTheMiddleOfABuffer() throws CodecException {
        Message m = new Request(5, new Call.DescribeSensor("DUMMY_0"));
        byte[] encoded = codec.encode(m);
        byte[] padded = new byte[encoded.length + 10];
        System.arraycopy(encoded, 0, padded, 4, encoded.length);
        assertEquals(m, codec.decode(padded, 4, encoded.length));
    }

    @Test
    void bytesValueKeepsItsContent() throws CodecException {
        byte[] payload = new byte[81920];
        Arrays.fill(payload, (byte) 0x5a);
        StreamData d = new StreamData(1, Reading.ok("DUMMY_0", 1, 0, Value.of(payload)));
        StreamData back = (StreamData) codec.decode(codec.encode(d));
        assertArrayEquals(payload, ((Value.Bytes) back.reading().value()).value());
    }

    @Test
    void garbageIsACodecExceptionNotARuntimeException() {
        byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 0x01};
        assertThrows(CodecException.class, () -> codec.decode(garbage));
    }

    @Test
    void anEmptyFrameIsRefused() {
        CodecException e = assertThrows(CodecException.class, () -> codec.decode(new byte[0]));
        assertTrue(e.getMessage().contains("empty frame"), e.getMessage());
    }

    @Test
    void anUnknownErrorCodeReadsAsInternal() throws CodecException {
        byte[] bytes = org.salgate.wire.proto.WireProto.Frame.newBuilder()
                .setResponse(org.salgate.wire.proto.WireProto.Response.newBuilder().setId(3)
                        .setFailure(org.salgate.wire.proto.WireProto.Failure.newBuilder()
                                .setCode("FROM_A_NEWER_AGENT").setMessage("m")))
                .build().toByteArray();
        Response r = (Response) codec.decode(bytes);
        assertEquals(new Result.Failure(ErrorCode.INTERNAL, "m"), r.result());
    }

    @Test
    void aReadingStatusFromANewerPeerReadsAsAnErrorNamingItAndKeepsTheRest() throws CodecException {
        byte[] bytes = org.salgate.wire.proto.WireProto.Frame.newBuilder()
                .setStreamData(org.salgate.wire.proto.WireProto.StreamData.newBuilder().setStreamId(4)
                        .setReading(org.salgate.wire.proto.WireProto.Reading.newBuilder().setSensorId("S")
                                .setTimestampMicros(10).setSequence(3).setStatusValue(42).setError("why")
                                .setUnit("V").setDeviceTimeMicros(9)
                                .setValue(ProtobufCodec.toProto(Value.of(1.5)))))
                .build().toByteArray();
        Reading r = ((StreamData) codec.decode(bytes)).reading();
        assertEquals(Reading.Status.ERROR, r.status());
        assertEquals(Value.absent(), r.value());
        assertTrue(r.error().contains("42") && r.error().endsWith(": why"), r.error());
        assertEquals(3, r.sequence());
        assertEquals("V", r.unit());
        assertEquals(9, r.deviceTimeMicros());
    }

    @Test
    void everyReadingStatusOfTheModelHasItsNumberInTheSchema() throws CodecException {
        for (Reading.Status status : Reading.Status.values()) {
            Value value = status == Reading.Status.OK ? Value.of(1L) : Value.absent();
            Reading r = new Reading("S", 1, 0, value, status, "why");
            assertEquals(status.ordinal(), ProtobufCodec.toProto(r).getStatusValue(), status.name());
            assertEquals("READING_STATUS_" + status.name(), ProtobufCodec.toProto(r).getStatus().name());
            assertEquals(r, ((StreamData) codec.decode(codec.encode(new StreamData(1, r)))).reading());
        }
    }

    @Test
    void aReadingKeepsItsUnitDeviceTimeAndDisconnectedStatus() throws CodecException {
        Reading r = Reading.disconnected("meter.voltage", 5, 2, "device meter is disconnected; next attempt in 1.0 s")
                .withUnit("V").withDeviceTime(1_700_000_000_123_456L);
        assertEquals(r, ((StreamData) codec.decode(codec.encode(new StreamData(1, r)))).reading());
        Reading ok = Reading.ok("meter.voltage", 5, 2, Value.of(230.1)).withUnit("V").withDeviceTime(4);
        assertEquals(ok, ((StreamData) codec.decode(codec.encode(new StreamData(1, ok)))).reading());
    }
}
