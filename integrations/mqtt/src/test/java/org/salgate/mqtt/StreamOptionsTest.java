package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.mqtt.report.ReportPolicy;
import org.salgate.mqtt.report.ReportPolicy.Deadband;

/** The reporting options written after a stream: {@code DUMMY_0@100ms deadband=0.5}. */
class StreamOptionsTest {

    @TempDir
    Path dir;

    @Test
    void optionsFollowTheStreamSeparatedBySpaces() {
        assertEquals(new StreamSpec("DUMMY_0", "read", 100, ReportPolicy.byException(new Deadband(0.5, false), null)),
                StreamSpec.parse("DUMMY_0@100ms deadband=0.5"));
        assertEquals(new StreamSpec("lab.*", "read", 1000,
                        ReportPolicy.byException(new Deadband(2, true), Duration.ofSeconds(60))),
                StreamSpec.parse("lab.*@1s  deadband=2%\theartbeat=60s"));
        assertEquals(new StreamSpec("CPU_LOAD", "read", 1000, ReportPolicy.window(Duration.ofSeconds(10))),
                StreamSpec.parse("CPU_LOAD:read@1s window=10s"));
        assertEquals(new StreamSpec("X", "read", 50, ReportPolicy.byException(new Deadband(0, false), null)),
                StreamSpec.parse(" X@50 deadband=0 "));
    }

    @Test
    void aStreamWithoutOptionsSendsEveryReading() {
        StreamSpec plain = StreamSpec.parse("DUMMY_0@100ms");
        assertTrue(plain.report().isEveryReading());
        assertEquals(new StreamSpec("DUMMY_0", "read", 100), plain);
    }

    @Test
    void aPatternPassesItsOptionsToEachSensor() {
        StreamSpec lab = StreamSpec.parse("lab.*@1s deadband=2% heartbeat=1m");
        assertEquals(lab.report(), lab.forSensor("lab.T").report());
    }

    @Test
    void theSameStreamWithOtherOptionsIsAnotherStream() {
        assertTrue(!StreamSpec.parse("A@1s deadband=1").equals(StreamSpec.parse("A@1s deadband=2")));
    }

    @Test
    void toStringWritesTheOptionsBack() {
        StreamSpec s = StreamSpec.parse("A:read@1s deadband=2.5% heartbeat=1m");
        assertEquals("A:read@1000ms deadband=2.5% heartbeat=60000ms", s.toString());
        assertEquals(s, StreamSpec.parse(s.toString()));
        assertEquals("A:read@1000ms window=10000ms", StreamSpec.parse("A@1s window=10s").toString());
    }

    @Test
    void aStreamsFileTakesOptionsToo() throws Exception {
        Path file = Files.writeString(dir.resolve("streams"), "# noisy\nCPU_LOAD@1s window=10s\nDUMMY_0@1s deadband=1\n");
        assertEquals(List.of(StreamSpec.parse("CPU_LOAD@1s window=10s"), StreamSpec.parse("DUMMY_0@1s deadband=1")),
                StreamSpec.readFile(file));
    }

    @Test
    void badOptionsAreRefusedNamingWhatIsWrong() {
        assertRefused("DUMMY_0@1s deadbnd=1", "'deadbnd=1' is not a stream option", "deadband=N%");
        assertRefused("DUMMY_0@1s deadband=-1", "no valid deadband", "deadband=2%");
        assertRefused("DUMMY_0@1s deadband=abc", "no valid deadband");
        assertRefused("DUMMY_0@1s deadband=", "no valid deadband");
        assertRefused("DUMMY_0@1s deadband=%", "no valid deadband");
        assertRefused("DUMMY_0@1s deadband=1 deadband=2", "deadband= twice");
        assertRefused("DUMMY_0@1s heartbeat=soon deadband=1", "'soon'", "100ms, 1s");
        assertRefused("DUMMY_0@1s heartbeat=60s", "heartbeat= goes with a deadband", "'DUMMY_0@1s heartbeat=60s'");
        assertRefused("DUMMY_0@1s window=10s deadband=1", "window= stands alone");
        assertRefused("DUMMY_0@1s deadband=1 heartbeat=1s", "not longer than the stream's interval");
        assertRefused("DUMMY_0@1s window=500ms", "not longer than the stream's interval");
        assertRefused("deadband=1", "SENSOR[:COMMAND]@INTERVAL");
    }

    private static void assertRefused(String text, String... saying) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamSpec.parse(text), text);
        for (String s : saying) {
            assertTrue(e.getMessage().contains(s), text + " -> " + e.getMessage());
        }
    }
}
