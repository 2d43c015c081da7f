package org.salgate.wire;

import java.util.Arrays;
import java.util.Objects;

/** A sensor value or an echo payload. */
public sealed interface Value permits Value.Num, Value.Int, Value.Text, Value.Bytes, Value.Absent {

    /** A measured quantity. */
    record Num(double value) implements Value {}

    /** A count or other integral value. */
    record Int(long value) implements Value {}

    /** Text, such as an identifier or a status word. */
    record Text(String value) implements Value {
        public Text {
            Objects.requireNonNull(value, "value");
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
            return "Bytes[" + value.length + " B]";
        }
    }

    /** No value: the sensor cannot give one (see the reading's status). */
    record Absent() implements Value {
        static final Absent INSTANCE = new Absent();
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
