package org.salgate.mqtt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One stream the bridge publishes: a sensor's command read every {@code intervalMs} milliseconds.
 * Written on the command line as {@code SENSOR[:COMMAND]@INTERVAL}, for example {@code DUMMY_0@100ms},
 * {@code CPU_LOAD:read@1s}. The sensor may be a pattern: {@code *} for every sensor, or a prefix
 * followed by {@code *} ({@code lab.*}) for the sensors whose ids begin with it, those the agent has
 * and those added later.
 *
 * @param sensorId the sensor, or a pattern ending in {@value #WILDCARD}
 * @param commandId the command whose readings are published ({@value #DEFAULT_COMMAND} when omitted)
 * @param intervalMs the interval in milliseconds, positive
 */
public record StreamSpec(String sensorId, String commandId, long intervalMs) {

    /** The command published when the spec names none. */
    public static final String DEFAULT_COMMAND = "read";
    /** Ends a sensor pattern: {@code *} alone matches every sensor, {@code lab.*} those beginning with {@code lab.}. */
    public static final String WILDCARD = "*";

    public StreamSpec {
        Objects.requireNonNull(sensorId, "sensorId");
        Objects.requireNonNull(commandId, "commandId");
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
    }

    /**
     * Parses {@code SENSOR[:COMMAND]@INTERVAL}; the interval is a number of milliseconds, or a number
     * followed by {@code ms}, {@code s} or {@code m}.
     *
     * @throws IllegalArgumentException saying what is wrong and what is expected
     */
    public static StreamSpec parse(String text) {
        Objects.requireNonNull(text, "text");
        int at = text.lastIndexOf('@');
        if (at <= 0 || at == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not a stream: write SENSOR[:COMMAND]@INTERVAL,"
                    + " for example DUMMY_0@100ms or FREE_MEMORY:read@1s");
        }
        String target = text.substring(0, at);
        long interval = parseInterval(text.substring(at + 1), text);
        int colon = target.indexOf(':');
        String sensor = colon < 0 ? target : target.substring(0, colon);
        String command = colon < 0 ? DEFAULT_COMMAND : target.substring(colon + 1);
        return new StreamSpec(sensor, command, interval);
    }

    /**
     * Reads a streams file: one {@code SENSOR[:COMMAND]@INTERVAL} a line; blank lines and lines
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

    /** This stream's command and interval for one sensor its pattern matches. */
    public StreamSpec forSensor(String id) {
        return new StreamSpec(id, commandId, intervalMs);
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
            throw new IllegalArgumentException("'" + whole + "' has no valid interval: give a positive number of"
                    + " milliseconds, or a number followed by ms, s or m (for example 100ms, 1s)");
        }
    }

    @Override
    public String toString() {
        return sensorId + ":" + commandId + "@" + intervalMs + "ms";
    }
}
