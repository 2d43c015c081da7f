package org.salgate.mqtt;

import java.util.Objects;

/**
 * One stream the bridge publishes: a sensor's command read every {@code intervalMs} milliseconds.
 * Written on the command line as {@code SENSOR[:COMMAND]@INTERVAL}, for example {@code DUMMY_0@100ms},
 * {@code CPU_LOAD:read@1s}.
 *
 * @param sensorId the sensor
 * @param commandId the command whose readings are published ({@value #DEFAULT_COMMAND} when omitted)
 * @param intervalMs the interval in milliseconds, positive
 */
public record StreamSpec(String sensorId, String commandId, long intervalMs) {

    /** The command published when the spec names none. */
    public static final String DEFAULT_COMMAND = "read";

    public StreamSpec {
        Objects.requireNonNull(sensorId, "sensorId");
        Objects.requireNonNull(commandId, "commandId");
        if (sensorId.isBlank() || commandId.isBlank()) {
            throw new IllegalArgumentException("a stream needs a sensor id and a command id");
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
