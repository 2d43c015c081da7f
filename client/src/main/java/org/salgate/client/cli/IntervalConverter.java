package org.salgate.client.cli;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import picocli.CommandLine;

/** Reads a stream interval in milliseconds: {@code 100ms}, {@code 2s}, {@code 1m}, or a bare number of milliseconds; 0 too. */
final class IntervalConverter implements CommandLine.ITypeConverter<Long>, ExpectedValue {

    @Override
    public String expected() {
        return "a duration (e.g. 100ms, 2s, or a number of milliseconds)";
    }

    @Override
    public Long convert(String value) {
        Duration d = DurationConverter.parse(value, ChronoUnit.MILLIS);
        if (d == null || d.isNegative()) {
            throw refuse(value);
        }
        try {
            return d.toMillis();
        } catch (ArithmeticException e) {
            throw refuse(value); // longer than Long.MAX_VALUE ms
        }
    }
}
