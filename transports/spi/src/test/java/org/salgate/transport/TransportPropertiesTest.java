package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransportPropertiesTest {

    @Test
    void aPositiveNumberIsItsValueTrimmedOrTheDefaultWhenUnsetOrBlank() {
        assertEquals(100, TransportProperties.positiveInt(Map.of(), "x.limit", 100));
        assertEquals(100, TransportProperties.positiveInt(Map.of("x.limit", " "), "x.limit", 100));
        assertEquals(7, TransportProperties.positiveInt(Map.of("x.limit", " 7 "), "x.limit", 100));
    }

    @Test
    void aPositiveNumberSetToAnythingElseIsRefusedNamingThePropertyAndTheValue() {
        for (String bad : new String[] {"0", "-3", "many", "1.5"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TransportProperties.positiveInt(Map.of("x.limit", bad), "x.limit", 100));
            assertTrue(e.getMessage().contains("x.limit") && e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void aChoiceIsTheFirstWhenUnsetAndAnOtherValueIsRefusedWithTheChoices() {
        List<String> choices = List.of("direct", "pool");
        assertEquals("direct", TransportProperties.oneOf(Map.of(), "x.executor", choices));
        assertEquals("pool", TransportProperties.oneOf(Map.of("x.executor", "pool"), "x.executor", choices));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TransportProperties.oneOf(Map.of("x.executor", "fast"), "x.executor", choices));
        assertTrue(e.getMessage().contains("'fast'") && e.getMessage().contains("[direct, pool]"), e.getMessage());
    }
}
