package org.salgate.plugin.spi;

/**
 * The sensor's device cannot be reached now: unplugged, out of range, or behind another agent that
 * has gone away. The agent reports the sensor {@code DISCONNECTED} (with an event) until one of its
 * reads succeeds again; unlike other failures, it never counts towards disabling the sensor.
 */
public class SensorDisconnectedException extends PluginException {
    private static final long serialVersionUID = 1L;

    public SensorDisconnectedException(String reason) {
        super(reason);
    }

    public SensorDisconnectedException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
