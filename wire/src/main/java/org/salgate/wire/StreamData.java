package org.salgate.wire;

import org.salgate.model.Reading;
import org.salgate.model.Call;

import java.util.Objects;

/**
 * A reading pushed on a stream the client started.
 *
 * @param streamId the stream, as returned by {@link Call.SetupStream}
 * @param reading the reading, whose sequence number counts from 0 per stream without gaps
 */
public record StreamData(long streamId, Reading reading) implements Message {
    public StreamData {
        Objects.requireNonNull(reading, "reading");
    }
}
