package org.salgate.client.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine;

/** Reads durations such as {@code 10s}, {@code 500ms}, {@code 2m}, {@code 1h}, a bare number of seconds, or ISO-8601. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration>, ExpectedValue {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    @Override
    public String expected() {
        return "a duration; use a form such as 10s, 500ms or 2m";
    }

    @Override
    public Duration convert(String value) {
        Duration d = parse(value, ChronoUnit.SECONDS);
        if (d == null) {
            throw refuse(value);
        }
        if (d.isZero() || d.isNegative()) {
            throw new CommandLine.TypeConversionException("the duration must be positive, got '" + value + "'");
        }
        return d;
    }

    /** The duration written, a bare number counting {@code bareUnit}s; null when it is not one. */
    static Duration parse(String value, ChronoUnit bareUnit) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(v);
        if (m.matches()) {
            try {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2) == null ? "" : m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.of(n, bareUnit);
                };
            } catch (ArithmeticException | NumberFormatException e) {
                return null;
            }
        }
        try {
            return Duration.parse(value.trim().toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
