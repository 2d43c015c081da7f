package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StreamSpecTest {

    @Test
    void parsesSensorCommandAndIntervalWithUnits() {
        assertEquals(new StreamSpec("DUMMY_0", "read", 100), StreamSpec.parse("DUMMY_0@100ms"));
        assertEquals(new StreamSpec("DUMMY_0", "payload", 2000), StreamSpec.parse("DUMMY_0:payload@2s"));
        assertEquals(new StreamSpec("X", "read", 60_000), StreamSpec.parse("X@1m"));
        assertEquals(new StreamSpec("X", "read", 250), StreamSpec.parse("X@250"));
    }

    @Test
    void malformedSpecsSayWhatToWrite() {
        for (String bad : new String[] {"DUMMY_0", "@1s", "DUMMY_0@", "DUMMY_0@0ms", "DUMMY_0@fast", "DUMMY_0:@1s"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamSpec.parse(bad), bad);
            assertTrue(e.getMessage().contains("SENSOR[:COMMAND]@INTERVAL") || e.getMessage().contains("interval")
                    || e.getMessage().contains("command id"), e.getMessage());
        }
    }

    @Test
    void topicLevelsReplaceWhatMqttReserves() {
        Topics t = new Topics("site/a", "gw+1");
        assertEquals("site/a/gw_1/sensors/T_1/read", t.reading("T/1", "read"));
        assertEquals("site/a/gw_1/sensors/T_1/description", t.description("T#1"));
        assertEquals("site/a/gw_1/status", t.status());
        assertThrows(IllegalArgumentException.class, () -> new Topics("a/#", "gw"));
        assertThrows(IllegalArgumentException.class, () -> new Topics("/a", "gw"));
    }
}
