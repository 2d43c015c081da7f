package org.salgate.model;


import java.util.List;
import java.util.Objects;

/** The outcome of a {@link Call}: one of the typed results, or a {@link Failure}. */
public sealed interface Result {

    /** The operation succeeded and has nothing to return. */
    record Ack() implements Result {
        static final Ack INSTANCE = new Ack();
    }

    /** A list of sensors. */
    record Sensors(List<SensorInfo> sensors) implements Result {
        public Sensors {
            sensors = List.copyOf(sensors);
        }
    }

    /** One sensor, such as the one just added. */
    record Sensor(SensorInfo sensor) implements Result {
        public Sensor {
            Objects.requireNonNull(sensor, "sensor");
        }
    }

    /** An XML document: SensorML, CML or PCML. */
    record Document(String xml) implements Result {
        public Document {
            Objects.requireNonNull(xml, "xml");
        }
    }

    /** A reading. */
    record ReadingResult(Reading reading) implements Result {
        public ReadingResult {
            Objects.requireNonNull(reading, "reading");
        }
    }

    /** The id of a stream that was set up, and the slow-consumer policy the agent applies to it. */
    record StreamHandle(long streamId, SlowConsumerPolicy policy) implements Result {
        public StreamHandle {
            Objects.requireNonNull(policy, "policy");
        }

        /** A handle with the default policy, {@link SlowConsumerPolicy#BLOCK}. */
        public StreamHandle(long streamId) {
            this(streamId, SlowConsumerPolicy.BLOCK);
        }
    }

    /** A stream was stopped; what became of its readings. */
    record StreamStopped(StreamCounts counts) implements Result {
        public StreamStopped {
            Objects.requireNonNull(counts, "counts");
        }
    }

    /** A list of protocols. */
    record Protocols(List<ProtocolInfo> protocols) implements Result {
        public Protocols {
            protocols = List.copyOf(protocols);
        }
    }

    /** An echoed payload. */
    record Echoed(Value payload) implements Result {
        public Echoed {
            Objects.requireNonNull(payload, "payload");
        }
    }

    /** The operation failed. */
    record Failure(ErrorCode code, String message) implements Result {
        public Failure {
            Objects.requireNonNull(code, "code");
            message = message == null ? "" : message;
        }
    }

    static Result ack() {
        return Ack.INSTANCE;
    }
}
