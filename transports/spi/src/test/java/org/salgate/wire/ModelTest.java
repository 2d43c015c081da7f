package org.salgate.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelTest {

    @Test
    void anOkReadingNeedsAValue() {
        assertThrows(IllegalArgumentException.class, () -> Reading.ok("S", 1, 0, Value.absent()));
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
        assertTrue(Value.of(new byte[80]).toString().contains("80 B"));
    }
}
