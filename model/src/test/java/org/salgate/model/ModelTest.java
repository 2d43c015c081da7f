package org.salgate.model;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelTest {

    @Test
    void valuesPrintAsAPersonReadsThem() {
        assertEquals("42", Value.of(42.0).toString());
        assertEquals("42.5", Value.of(42.5).toString());
        assertEquals("0.001", Value.of(0.001).toString());
        assertEquals("23579115520", Value.of(23579115520.0).toString());
        assertEquals("NaN", Value.of(Double.NaN).toString());
        assertEquals("7", Value.of(7L).toString());
        assertEquals("up", Value.of("up").toString());
        assertEquals("<3 bytes>", Value.of(new byte[3]).toString());
        assertEquals("-", Value.absent().toString());
    }

    @Test
    void anOkReadingNeedsAValue() {
        assertThrows(IllegalArgumentException.class, () -> Reading.ok("S", 1, 0, Value.absent()));
    }

    @Test
    void aReadingHasNoUnitNorDeviceTimeUntilGivenAndKeepsThemThroughANewSequence() {
        Reading plain = Reading.ok("S", 1, 0, Value.of(2.5));
        assertEquals("", plain.unit());
        assertEquals(0, plain.deviceTimeMicros());
        Reading stamped = plain.withUnit("Cel").withDeviceTime(123).withSequence(9);
        assertEquals("Cel", stamped.unit());
        assertEquals(123, stamped.deviceTimeMicros());
        assertEquals(9, stamped.sequence());
        assertEquals("", plain.withUnit(null).unit());
    }

    @Test
    void aDisconnectedReadingHasNoValueAndIsAFailedReadLikeAnError() {
        Reading r = Reading.disconnected("S", 1, 0, "device down; next attempt in 2.0 s");
        assertEquals(Reading.Status.DISCONNECTED, r.status());
        assertEquals(Value.absent(), r.value());
        assertTrue(r.status().failed());
        assertTrue(Reading.Status.ERROR.failed());
        assertEquals(false, Reading.Status.OK.failed() || Reading.Status.UNAVAILABLE.failed());
    }

    @Test
    void callArgumentsAreCopied() {
        Map<String, String> args = new HashMap<>(Map.of("size", "10"));
        Call.Execute call = new Call.Execute("S", "payload", args);
        args.put("size", "20");
        assertEquals("10", call.arguments().get("size"));
    }

    @Test
    void aStateEventNeedsAState() {
        assertThrows(NullPointerException.class, () -> new Event(Event.Type.SENSOR_STATE, "S", null, 1, ""));
    }

    @Test
    void bytesValuesCompareByContent() {
        assertEquals(Value.of(new byte[] {1, 2}), Value.of(new byte[] {1, 2}));
        assertTrue(Value.of(new byte[80]).toString().contains("80 bytes"));
    }
}
