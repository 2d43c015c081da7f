package org.salgate.bench.codec.run;

import java.io.IOException;

import org.salgate.bench.codec.format.PayloadFormat;
import org.salgate.wire.Codec;
import org.salgate.wire.Message;

/** One codec applied to one kind of value: what the harness times. */
public interface Serializer {

    /** Writes the value. */
    byte[] encode(Object value) throws Exception;

    /** Reads a value back from what {@link #encode} wrote. */
    Object decode(byte[] bytes) throws Exception;

    /** A payload format reading values of {@code type} ({@code Pois} or {@code Person}). */
    static Serializer payload(PayloadFormat format, Class<?> type) {
        return new Serializer() {
            @Override
            public byte[] encode(Object value) throws IOException {
                return format.encode(value);
            }

            @Override
            public Object decode(byte[] bytes) throws IOException {
                return format.decode(bytes, type);
            }
        };
    }

    /** A wire codec, which writes and reads salgate {@link Message}s. */
    static Serializer wire(Codec codec) {
        return new Serializer() {
            @Override
            public byte[] encode(Object value) {
                return codec.encode((Message) value);
            }

            @Override
            public Object decode(byte[] bytes) throws Exception {
                return codec.decode(bytes);
            }
        };
    }
}
