package org.salgate.mqtt.report;

import java.time.Duration;
import org.salgate.model.Reading;

/** A message a {@link ReportFilter} lets through: a reading, or a window's aggregate. */
public sealed interface Report {

    /** Why a reading is sent. */
    enum Reason {
        /** The stream sends every reading. */
        EVERY,
        /** The stream's first reading. */
        FIRST,
        /** Its value moved beyond the deadband, or (text, bytes) changed. */
        CHANGE,
        /** Its status differs from the last one sent (OK, ERROR, DISCONNECTED, UNAVAILABLE). */
        STATUS,
        /** Nothing was sent for the heartbeat's length: the latest reading goes anyway. */
        HEARTBEAT
    }

    /** A reading sent as it is. */
    record Sent(Reading reading, Reason reason) implements Report {}

    /**
     * The numeric readings with status OK of one window.
     *
     * @param sensorId the stream's sensor
     * @param startMicros the window's start, in microseconds since the epoch (agent time)
     * @param length the window's length
     * @param count how many readings it holds, 1 or more
     * @param unit the unit of its last reading
     */
    record Window(String sensorId, long startMicros, Duration length, long count, double min, double max,
                  double mean, String unit) implements Report {

        /** The window's end, in microseconds since the epoch. */
        public long endMicros() {
            return startMicros + length.toNanos() / 1000;
        }
    }
}
