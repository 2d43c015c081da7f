package org.salgate.plugin.spi;

/** What the agent offers a protocol it opens. */
public interface PluginContext {

    /** The endpoint the protocol is bound to. */
    Endpoint endpoint();

    /** The agent's current time in microseconds since the epoch, for timestamps. */
    long nowMicros();
}
