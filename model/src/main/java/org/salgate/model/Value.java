package org.salgate.model;


import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Objects;

/** A sensor value or an echo payload; {@code toString()} is the value as a person reads it, without its unit. */
public sealed interface Value permits Value.Num, Value.Int, Value.Text, Value.Bytes, Value.Absent {

    /** A measured quantity. */
    record Num(double value) implements Value {
        /** The number as a person writes it: {@code 42}, {@code 42.5}, {@code 0.001}, {@code NaN}. */
        @Override
        public String toString() {
            return Double.isFinite(value)
                    ? BigDecimal.valueOf(value).stripTrailingZeros().toPlainString()
                    : Double.toString(value);
        }
    }

    /** A count or other integral value. */
    record Int(long value) implements Value {
        /** The number itself: {@code 42}. */
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    /** Text, such as an identifier or a status word. */
    record Text(String value) implements Value {
        public Text {
            Objects.requireNonNull(value, "value");
        }

        /** The text itself. */
        @Override
        public String toString() {
            return value;
        }
    }

    /** Opaque bytes, such as an image or a bulk payload. The array is not copied. */
    record Bytes(byte[] value) implements Value {
        public Bytes {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes b && Arrays.equals(value, b.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "<" + value.length + " bytes>";
        }
    }

    /** No value: the sensor cannot give one (see the reading's status). */
    record Absent() implements Value {
        static final Absent INSTANCE = new Absent();

        /** A dash, as a table shows a missing value. */
        @Override
        public String toString() {
            return "-";
        }
    }

    static Value of(double v) {
        return new Num(v);
    }

    static Value of(long v) {
        return new Int(v);
    }

    static Value of(String v) {
        return new Text(v);
    }

    static Value of(byte[] v) {
        return new Bytes(v);
    }

    static Value absent() {
        return Absent.INSTANCE;
    }
}
