package org.salgate.model;


import java.util.Map;
import java.util.Objects;

/** What a client asks of the agent: the SAL API, one record per operation. */
public sealed interface Call {

    // ---- sensor management

    /** List sensors; {@code activeOnly} keeps those that are streaming. Answer: {@link Result.Sensors}. */
    record ListSensors(boolean activeOnly) implements Call {}

    /** A sensor's SensorML description. Answer: {@link Result.Document}. */
    record DescribeSensor(String sensorId) implements Call {
        public DescribeSensor {
            Objects.requireNonNull(sensorId, "sensorId");
        }
    }

    /** Add a sensor from its SensorML description. Answer: {@link Result.Sensor}. */
    record AddSensor(String sensorMl) implements Call {
        public AddSensor {
            Objects.requireNonNull(sensorMl, "sensorMl");
        }
    }

    /** Remove a sensor; its streams end. Answer: {@link Result.Ack}. */
    record RemoveSensor(String sensorId) implements Call {
        public RemoveSensor {
            Objects.requireNonNull(sensorId, "sensorId");
        }
    }

    // ---- sensor control

    /** A sensor's commands as a CML document. Answer: {@link Result.Document}. */
    record ListCommands(String sensorId) implements Call {
        public ListCommands {
            Objects.requireNonNull(sensorId, "sensorId");
        }
    }

    /** Execute a command once. Answer: {@link Result.ReadingResult}. */
    record Execute(String sensorId, String commandId, Map<String, String> arguments) implements Call {
        public Execute {
            Objects.requireNonNull(sensorId, "sensorId");
            Objects.requireNonNull(commandId, "commandId");
            arguments = arguments == null ? Map.of() : Map.copyOf(arguments);
        }
    }

    /**
     * Set up a stream of a command's readings every {@code intervalMs} milliseconds (0: as fast as
     * the client takes them), with what to do when the client reads slower ({@code policy}; null
     * for the agent's default). It starts with {@link StartStream}. Answer: {@link Result.StreamHandle}.
     *
     * <p>{@code shared}: join the agent's one shared stream of this command, with these arguments, at
     * this interval, rather than a stream of this client's own. The agent then reads the sensor once
     * per tick and encodes each reading once for every subscriber, and all of them see the same
     * stream id and sequence numbers: a subscriber's first reading is the next one the shared stream
     * takes (its sequence need not be 0), and a reading it missed while it was not taking frames
     * shows as a gap, whatever its policy. A shared stream needs an interval above 0; a connection
     * joins a given shared stream once.
     */
    record SetupStream(String sensorId, String commandId, Map<String, String> arguments, long intervalMs,
                       SlowConsumerPolicy policy, boolean shared) implements Call {
        public SetupStream {
            Objects.requireNonNull(sensorId, "sensorId");
            Objects.requireNonNull(commandId, "commandId");
            arguments = arguments == null ? Map.of() : Map.copyOf(arguments);
        }

        /** A stream of the client's own, with the agent's default policy. */
        public SetupStream(String sensorId, String commandId, Map<String, String> arguments, long intervalMs) {
            this(sensorId, commandId, arguments, intervalMs, null, false);
        }

        /** A stream of the client's own. */
        public SetupStream(String sensorId, String commandId, Map<String, String> arguments, long intervalMs,
                           SlowConsumerPolicy policy) {
            this(sensorId, commandId, arguments, intervalMs, policy, false);
        }
    }

    /** Start a stream that was set up. Answer: {@link Result.Ack}. */
    record StartStream(long streamId) implements Call {}

    /** Stop a stream; no frame of it follows the answer. Answer: {@link Result.StreamStopped}. */
    record StopStream(long streamId) implements Call {}

    // ---- platform configuration

    /** The loaded protocols. Answer: {@link Result.Protocols}. */
    record ListProtocols() implements Call {}

    /** Add protocols from a PCML document, loading their plugins. Answer: {@link Result.Protocols} added. */
    record AddProtocol(String pcml) implements Call {
        public AddProtocol {
            Objects.requireNonNull(pcml, "pcml");
        }
    }

    /** Remove a protocol and its sensors. Answer: {@link Result.Ack}. */
    record RemoveProtocol(String name) implements Call {
        public RemoveProtocol {
            Objects.requireNonNull(name, "name");
        }
    }

    /** The platform configuration as a PCML document. Answer: {@link Result.Document}. */
    record GetPlatformConfig() implements Call {}

    // ---- events

    /** Start receiving event notices. Answer: {@link Result.Ack}. */
    record SubscribeEvents() implements Call {}

    /** Stop receiving event notices. Answer: {@link Result.Ack}. */
    record UnsubscribeEvents() implements Call {}

    // ---- transport-level probes, not the SAL API: the agent refuses them (see Operation#probe)

    /** Send a value back unchanged. Answer: {@link Result.Echoed}. */
    record Echo(Value payload) implements Call {
        public Echo {
            Objects.requireNonNull(payload, "payload");
        }
    }

    /** Send a reading back unchanged (the "object" payload of the benchmarks). Answer: {@link Result.ReadingResult}. */
    record EchoReading(Reading reading) implements Call {
        public EchoReading {
            Objects.requireNonNull(reading, "reading");
        }
    }
}
