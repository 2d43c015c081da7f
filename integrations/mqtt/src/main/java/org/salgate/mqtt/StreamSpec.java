package org.salgate.mqtt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.salgate.mqtt.report.ReportPolicy;

/**
 * One stream the bridge publishes: a sensor's command read every {@code intervalMs} milliseconds.
 * Written on the command line as {@code SENSOR[:COMMAND]@INTERVAL}, for example {@code DUMMY_0@100ms},
 * {@code CPU_LOAD:read@1s}. The sensor may be a pattern: {@code *} for every sensor, or a prefix
 * followed by {@code *} ({@code lab.*}) for the sensors whose ids begin with it, those the agent has
 * and those added later.
 *
 * <p>Reporting options may follow, separated by spaces: {@code DUMMY_0@100ms deadband=0.5},
 * {@code lab.*@1s deadband=2% heartbeat=60s}, {@code CPU_LOAD@1s window=10s} (see {@link ReportPolicy}).
 *
 * @param sensorId the sensor, or a pattern ending in {@value #WILDCARD}
 * @param commandId the command whose readings are published ({@value #DEFAULT_COMMAND} when omitted)
 * @param intervalMs the interval in milliseconds, positive
 * @param report which readings become messages
 */
public record StreamSpec(String sensorId, String commandId, long intervalMs, ReportPolicy report) {

    /** The command published when the spec names none. */
    public static final String DEFAULT_COMMAND = "read";
    /** Ends a sensor pattern: {@code *} alone matches every sensor, {@code lab.*} those beginning with {@code lab.}. */
    public static final String WILDCARD = "*";
    /** What the options after a stream may be. */
    private static final String OPTIONS = "deadband=N (an absolute change), deadband=N% (a change relative to the"
            + " last value sent), heartbeat=DURATION (with a deadband: the longest silence) or window=DURATION"
            + " (one min/max/mean/count message per window)";

    public StreamSpec {
        Objects.requireNonNull(sensorId, "sensorId");
        Objects.requireNonNull(commandId, "commandId");
        Objects.requireNonNull(report, "report");
        if (sensorId.isBlank() || commandId.isBlank()) {
            throw new IllegalArgumentException("a stream needs a sensor id and a command id");
        }
        if (sensorId.indexOf('*') >= 0 && sensorId.indexOf('*') != sensorId.length() - 1) {
            throw new IllegalArgumentException("'" + sensorId + "' is not a sensor pattern: a * may stand only at the"
                    + " end, as in * (every sensor) or lab.* (the sensors whose ids begin with lab.)");
        }
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("a stream's interval must be positive, got " + intervalMs + " ms");
        }
        if (report.heartbeat() != null && report.heartbeat().toMillis() <= intervalMs) {
            throw new IllegalArgumentException("heartbeat=" + report.heartbeat().toMillis() + "ms is not longer than"
                    + " the stream's interval of " + intervalMs + " ms: give a heartbeat of several intervals");
        }
        if (report.window() != null && report.window().toMillis() <= intervalMs) {
            throw new IllegalArgumentException("window=" + report.window().toMillis() + "ms is not longer than"
                    + " the stream's interval of " + intervalMs + " ms: give a window of several intervals");
        }
    }

    /** A stream of every reading. */
    public StreamSpec(String sensorId, String commandId, long intervalMs) {
        this(sensorId, commandId, intervalMs, ReportPolicy.everyReading());
    }

    /**
     * Parses {@code SENSOR[:COMMAND]@INTERVAL [OPTION=VALUE...]}; the interval, and the durations of
     * {@code heartbeat=} and {@code window=}, are a number of milliseconds, or a number followed by
     * {@code ms}, {@code s} or {@code m}; a deadband is a number, or a number followed by {@code %}.
     *
     * @throws IllegalArgumentException saying what is wrong and what is expected
     */
    public static StreamSpec parse(String text) {
        Objects.requireNonNull(text, "text");
        String[] words = text.strip().split("\\s+");
        String stream = words[0];
        int at = stream.lastIndexOf('@');
        if (at <= 0 || at == stream.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not a stream: write SENSOR[:COMMAND]@INTERVAL,"
                    + " then options if any, for example DUMMY_0@100ms or FREE_MEMORY:read@1s deadband=1%");
        }
        String target = stream.substring(0, at);
        long interval = parseInterval(stream.substring(at + 1), text);
        int colon = target.indexOf(':');
        String sensor = colon < 0 ? target : target.substring(0, colon);
        String command = colon < 0 ? DEFAULT_COMMAND : target.substring(colon + 1);
        try {
            return new StreamSpec(sensor, command, interval, parseOptions(words, text));
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith("'" + text) ? e
                    : new IllegalArgumentException("'" + text + "': " + e.getMessage(), e);
        }
    }

    private static ReportPolicy parseOptions(String[] words, String whole) {
        ReportPolicy.Deadband deadband = null;
        Duration heartbeat = null;
        Duration window = null;
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            String name = eq < 0 ? words[i] : words[i].substring(0, eq);
            String value = eq < 0 ? "" : words[i].substring(eq + 1);
            if (!seen.add(name)) {
                throw new IllegalArgumentException("'" + whole + "' gives " + name + "= twice: give each option once");
            }
            switch (name) {
                case "deadband" -> deadband = parseDeadband(value, whole);
                case "heartbeat" -> heartbeat = Duration.ofMillis(parseInterval(value, whole));
                case "window" -> window = Duration.ofMillis(parseInterval(value, whole));
                default -> throw new IllegalArgumentException("'" + whole + "': '" + words[i] + "' is not a stream"
                        + " option; the options are " + OPTIONS);
            }
        }
        return new ReportPolicy(deadband, heartbeat, window);
    }

    private static ReportPolicy.Deadband parseDeadband(String value, String whole) {
        boolean percent = value.endsWith("%");
        String digits = percent ? value.substring(0, value.length() - 1) : value;
        try {
            double amount = Double.parseDouble(digits);
            if (Double.isFinite(amount) && amount >= 0 && !digits.isBlank() && Character.isDigit(digits.charAt(
                    digits.length() - 1))) {
                return new ReportPolicy.Deadband(amount, percent);
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("'" + whole + "' has no valid deadband: give deadband= a number of 0"
                + " or more, in the value's unit (deadband=0.5) or as a percentage of the last value sent"
                + " (deadband=2%)");
    }

    /**
     * Reads a streams file: one {@code SENSOR[:COMMAND]@INTERVAL [OPTION=VALUE...]} a line; blank lines and lines
     * beginning with {@code #} are skipped.
     *
     * @throws IllegalArgumentException naming the file and line of a malformed stream
     * @throws IOException when the file cannot be read
     */
    public static List<StreamSpec> readFile(Path file) throws IOException {
        List<StreamSpec> specs = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                specs.add(parse(line));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ", line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return specs;
    }

    /** Whether the sensor is a pattern ({@code *}, {@code lab.*}) rather than one sensor's id. */
    public boolean isPattern() {
        return sensorId.endsWith(WILDCARD);
    }

    /** Whether this stream is for the sensor {@code id}: its own, or one its pattern matches. */
    public boolean matches(String id) {
        return isPattern() ? id.startsWith(sensorId.substring(0, sensorId.length() - 1)) : sensorId.equals(id);
    }

    /** This stream's command, interval and options for one sensor its pattern matches. */
    public StreamSpec forSensor(String id) {
        return new StreamSpec(id, commandId, intervalMs, report);
    }

    private static long parseInterval(String s, String whole) {
        long factor = 1;
        String digits = s;
        if (s.endsWith("ms")) {
            digits = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            factor = 1000;
            digits = s.substring(0, s.length() - 1);
        } else if (s.endsWith("m")) {
            factor = 60_000;
            digits = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(digits);
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, factor);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + whole + "' has no valid interval or duration ('" + s + "'):"
                    + " give a positive number of milliseconds, or a number followed by ms, s or m (for example"
                    + " 100ms, 1s)");
        }
    }

    @Override
    public String toString() {
        String options = report.toString();
        return sensorId + ":" + commandId + "@" + intervalMs + "ms" + (options.isEmpty() ? "" : " " + options);
    }
}
