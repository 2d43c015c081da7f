package org.salgate.bench.cli;

import java.time.Duration;
import java.util.Locale;

import picocli.CommandLine;

/** Reads durations such as {@code 60s}, {@code 500ms}, {@code 2m} or {@code 1.5} (seconds). */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2).trim()));
            }
            double n;
            long unit;
            if (v.endsWith("s")) {
                n = Double.parseDouble(v.substring(0, v.length() - 1));
                unit = 1000;
            } else if (v.endsWith("m")) {
                n = Double.parseDouble(v.substring(0, v.length() - 1));
                unit = 60_000;
            } else {
                n = Double.parseDouble(v);
                unit = 1000;
            }
            if (n < 0) {
                throw new NumberFormatException();
            }
            return Duration.ofMillis(Math.round(n * unit));
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value
                    + "' is not a duration; write it like 60s, 500ms or 2m");
        }
    }
}
