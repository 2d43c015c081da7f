package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamSpecTest {

    @TempDir
    Path dir;

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

    @Test
    void anAsteriskMatchesEverySensorAndATrailingOneAPrefix() {
        StreamSpec all = StreamSpec.parse("*@1s");
        assertEquals(new StreamSpec("*", "read", 1000), all);
        assertTrue(all.isPattern() && all.matches("DUMMY_0") && all.matches("lab.CPU"));
        StreamSpec lab = StreamSpec.parse("lab.*:payload@100ms");
        assertTrue(lab.isPattern() && lab.matches("lab.DUMMY_0"));
        assertFalse(lab.matches("DUMMY_0") || lab.matches("lab"));
        assertEquals(new StreamSpec("lab.DUMMY_0", "payload", 100), lab.forSensor("lab.DUMMY_0"));
        StreamSpec one = StreamSpec.parse("DUMMY_0@1s");
        assertFalse(one.isPattern());
        assertTrue(one.matches("DUMMY_0") && !one.matches("DUMMY_01"));
    }

    @Test
    void anAsteriskAnywhereButAtTheEndIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamSpec.parse("*.CPU@1s"));
        assertTrue(e.getMessage().contains("'*.CPU'") && e.getMessage().contains("at the end"), e.getMessage());
    }

    @Test
    void aStreamsFileListsOneStreamALineWithCommentsAndBlankLines() throws Exception {
        Path file = Files.writeString(dir.resolve("streams"), "# lab\n\n*@1s\n  DUMMY_0:payload@100ms  \n");
        assertEquals(List.of(new StreamSpec("*", "read", 1000), new StreamSpec("DUMMY_0", "payload", 100)),
                StreamSpec.readFile(file));
    }

    @Test
    void aBadLineOfAStreamsFileNamesTheFileAndLine() throws Exception {
        Path file = Files.writeString(dir.resolve("streams"), "DUMMY_0@1s\nDUMMY_1@soon\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamSpec.readFile(file));
        assertTrue(e.getMessage().contains(file + ", line 2") && e.getMessage().contains("'DUMMY_1@soon'"),
                e.getMessage());
    }
}
