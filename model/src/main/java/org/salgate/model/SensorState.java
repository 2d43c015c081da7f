package org.salgate.model;


/** The state of a sensor as SAL reports it. */
public enum SensorState {
    /** Present and not streaming to anyone. */
    IDLE,
    /** At least one client streams from it. */
    STREAMING,
    /** Its endpoint or device cannot be reached. */
    DISCONNECTED,
    /** Switched off by configuration or after repeated plugin failures. */
    DISABLED
}
