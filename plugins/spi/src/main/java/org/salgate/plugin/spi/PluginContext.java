package org.salgate.plugin.spi;

/** What the agent offers a protocol it opens. */
public interface PluginContext {

    /** The endpoint the protocol is bound to. */
    Endpoint endpoint();

    /** The agent's current time in microseconds since the epoch, for timestamps. */
    long nowMicros();

    /**
     * Where the protocol delivers the values its device pushes, for the channels it
     * {@linkplain SensorProtocol#pushes pushes}. A context without one (an agent older than pushed
     * channels) refuses every push.
     */
    default PushSink push() {
        return (channel, value) -> {
            throw new IllegalArgumentException("this agent takes no pushed values");
        };
    }
}
