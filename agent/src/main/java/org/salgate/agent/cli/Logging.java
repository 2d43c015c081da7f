package org.salgate.agent.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * The agent program's logging, set from its options: a level, a level per component (a logger name
 * or prefix), and one line per event on standard error, as text or as JSON.
 *
 * <p>agent.jar logs through Logback rather than slf4j-simple: slf4j-simple reads its levels once,
 * before the first logger, prints a stack trace over many lines and has no JSON; Logback sets
 * levels at any time (a reload changes them), keeps a stack trace on its event's line with a
 * pattern, and writes JSON lines with its own encoder. Library modules bring no binding.
 */
final class Logging {

    static final List<String> LEVELS = List.of("error", "warn", "info", "debug", "trace");
    static final List<String> FORMATS = List.of("text", "json");

    /**
     * One line per event: the message and the stack trace's lines are joined with " | ", so that
     * the journal keeps an event, its exception and where it was thrown together. The line ends with
     * the pattern's own newline, which the replacement keeps as it is followed by nothing.
     */
    static final String TEXT_PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%level] %logger{0} - "
            + "%replace(%msg%n%ex){'[\\r\\n]+\\s*(?=.)', ' | '}%nopex";

    private Logging() {}

    /** What is wrong with the logging options, a sentence each naming the option; empty when nothing. */
    static List<String> problems(String level, Map<String, String> levels, String format) {
        List<String> problems = new ArrayList<>();
        if (!LEVELS.contains(level.toLowerCase(Locale.ROOT))) {
            problems.add("--log-level '" + level + "' is not a level: write " + String.join(", ", LEVELS));
        }
        levels.forEach((name, l) -> {
            if (!LEVELS.contains(l.toLowerCase(Locale.ROOT))) {
                problems.add("--log-levels " + name + "='" + l + "' is not a level: write " + String.join(", ", LEVELS));
            }
        });
        if (!FORMATS.contains(format.toLowerCase(Locale.ROOT))) {
            problems.add("--log-format '" + format + "' is not a format: write text or json");
        }
        return problems;
    }

    /**
     * Logs from now on at these levels in this format (the options checked by {@link #problems}).
     * Does nothing when another slf4j binding than Logback is in use (an embedder's, or a test
     * module's slf4j-simple): Logback's classes are touched only when it is the binding.
     */
    static void configure(String level, Map<String, String> levels, String format) {
        if (logback()) {
            LogbackSetup.configure(level, levels, format);
        }
    }

    /** Changes the levels only, keeping where and how events are written. */
    static void setLevels(String level, Map<String, String> levels) {
        if (logback()) {
            LogbackSetup.setLevels(level, levels);
        }
    }

    private static boolean logback() {
        return LoggerFactory.getILoggerFactory().getClass().getName().startsWith("ch.qos.logback.");
    }
}
