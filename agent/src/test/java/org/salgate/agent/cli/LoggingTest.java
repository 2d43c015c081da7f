package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The agent's log as an operator reads it in the journal: levels per component, one line per event. */
class LoggingTest {

    private final PrintStream stderr = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    /** Logs with these options into {@link #captured}. */
    private void configure(String level, Map<String, String> levels, String format) {
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        Logging.configure(level, levels, format);
    }

    @AfterEach
    void restore() {
        System.setErr(stderr);
        Logging.configure("warn", Map.of(), "text");
    }

    private List<String> lines() {
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void anEventWithAStackTraceIsOneLine() {
        configure("info", Map.of(), "text");
        LoggerFactory.getLogger("org.salgate.test.Device").warn("the meter went away",
                new IOException("connection reset", new IllegalStateException("socket closed")));
        List<String> lines = lines();
        assertEquals(1, lines.size(), String.join("\n", lines));
        String line = lines.get(0);
        assertTrue(line.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[WARN\\] Device - the meter went"
                + " away \\| java\\.io\\.IOException: connection reset \\| at org\\.salgate\\.agent\\.cli\\.LoggingTest.*"
                + " \\| Caused by: java\\.lang\\.IllegalStateException: socket closed.*"), line);
    }

    @Test
    void aComponentLogsAtItsOwnLevel() {
        configure("info", Map.of("org.salgate.test.device", "debug"), "text");
        Logger device = LoggerFactory.getLogger("org.salgate.test.device.Meter");
        Logger other = LoggerFactory.getLogger("org.salgate.test.other.Thing");
        device.debug("device detail");
        other.debug("other detail");
        other.info("other news");
        List<String> lines = lines();
        assertEquals(2, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).endsWith("[DEBUG] Meter - device detail"), lines.get(0));
        assertTrue(lines.get(1).endsWith("[INFO] Thing - other news"), lines.get(1));
    }

    @Test
    void jsonLinesHoldOneEventEach() throws Exception {
        configure("info", Map.of(), "json");
        LoggerFactory.getLogger("org.salgate.test.Device").error("failed\nreading", new IOException("boom"));
        List<String> lines = lines();
        assertEquals(1, lines.size(), String.join("\n", lines));
        JsonNode event = new ObjectMapper().readTree(lines.get(0));
        assertEquals("ERROR", event.get("level").asText());
        assertEquals("org.salgate.test.Device", event.get("loggerName").asText());
        assertEquals("failed\nreading", event.get("message").asText());
        assertEquals("boom", event.get("throwable").get("message").asText());
    }

    @Test
    void aWrongLevelOrFormatIsNamed() {
        assertEquals(List.of("--log-level 'loud' is not a level: write error, warn, info, debug, trace",
                        "--log-levels a.b='x' is not a level: write error, warn, info, debug, trace",
                        "--log-format 'xml' is not a format: write text or json"),
                Logging.problems("loud", Map.of("a.b", "x"), "xml"));
    }
}
