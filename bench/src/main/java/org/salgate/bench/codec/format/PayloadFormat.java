package org.salgate.bench.codec.format;

import java.io.IOException;

/**
 * How one wire format writes and reads the studies' application objects ({@link
 * org.salgate.bench.codec.study.Pois} and {@link org.salgate.bench.codec.study.Person}). The
 * names are those of salgate's message codecs, so that {@code json} here and {@code json} on the
 * wire are the same library with the same settings.
 *
 * <p>Implementations are thread-safe and keep no per-call state.
 */
public interface PayloadFormat {

    /** The codec name, such as {@code protobuf} or {@code json+gzip}. */
    String name();

    /** Writes a {@code Pois} or a {@code Person}. */
    byte[] encode(Object value) throws IOException;

    /**
     * Reads a value of {@code type} ({@code Pois.class} or {@code Person.class}).
     *
     * @throws IOException if the bytes are not a valid value of that type
     */
    <T> T decode(byte[] bytes, Class<T> type) throws IOException;
}
