package org.salgate.bench.server;

import java.util.Map;

import org.salgate.model.Call;

/**
 * How the bench's transport-level service is asked for a stream: a {@link Call.SetupStream} for the
 * pseudo-sensor {@value #SENSOR}, command {@value #COMMAND}, argument {@value #SIZE_ARG} = bytes per
 * message, then {@link Call.StartStream} and, to end it, {@link Call.StopStream}.
 */
public final class BenchProtocol {

    public static final String SENSOR = "bench";
    public static final String COMMAND = "payload";
    public static final String SIZE_ARG = "size";
    /** Largest stream payload the service accepts: 16 MiB, the default frame limit. */
    public static final int MAX_PAYLOAD_BYTES = 16 * 1024 * 1024 - 1024;

    /**
     * Per-session outbound bound of the bench's servers (both levels, every transport): room for
     * three 80 KB messages, and small enough that 1000 streaming sessions fit a 512 MB heap.
     */
    public static final int WRITE_HIGH_WATER_BYTES = 256 * 1024;
    public static final int WRITE_LOW_WATER_BYTES = 128 * 1024;

    /**
     * The order (a line on an agent server's stdin) asking for its stream counters, and the start of
     * its answer on stdout: {@code STREAM_COUNTS <frames encoded> <readings delivered>}.
     */
    public static final String STREAM_COUNTS_ORDER = "stream-counts";
    public static final String STREAM_COUNTS = "STREAM_COUNTS";

    /** The line a server process prints on stdout once it listens, followed by its port. */
    public static final String LISTENING = "LISTENING";

    private BenchProtocol() {}

    /** A stream of {@code sizeBytes}-byte messages, pushed as fast as the client takes them. */
    public static Call.SetupStream setupStream(int sizeBytes) {
        return new Call.SetupStream(SENSOR, COMMAND, Map.of(SIZE_ARG, Integer.toString(sizeBytes)), 0);
    }
}
