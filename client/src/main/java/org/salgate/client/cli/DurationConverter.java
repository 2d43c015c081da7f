package org.salgate.client.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine;

/** Reads durations such as {@code 10s}, {@code 500ms}, {@code 2m}, {@code 1h}, a bare number of seconds, or ISO-8601. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(v);
        Duration d;
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            d = switch (unit) {
                case "ms" -> Duration.ofMillis(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofSeconds(n);
            };
        } else {
            try {
                d = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + value + "' is not a duration; use a form such as 10s, 500ms or 2m");
            }
        }
        if (d.isZero() || d.isNegative()) {
            throw new CommandLine.TypeConversionException("the duration must be positive, got '" + value + "'");
        }
        return d;
    }
}
