package org.salgate.bench.codec.run;

import java.util.Objects;

/**
 * One value every codec writes and reads.
 *
 * @param name the workload name, such as {@code poi-250}
 * @param detail what the value is, for the report (such as "a graph of 13 persons")
 * @param value the value
 * @param wire whether the value is a salgate {@link org.salgate.wire.Message} (encoded by the wire
 *     codecs) rather than a study object (encoded by the payload formats)
 */
public record CodecWorkload(String name, String detail, Object value, boolean wire) {

    public CodecWorkload {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(value, "value");
    }
}
