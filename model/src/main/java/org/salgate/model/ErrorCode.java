package org.salgate.model;


/** Why a request failed. */
public enum ErrorCode {
    UNKNOWN_SENSOR,
    UNKNOWN_COMMAND,
    UNKNOWN_STREAM,
    UNKNOWN_PROTOCOL,
    /** An argument is missing, malformed, or outside its bounds (including stream intervals). */
    INVALID_ARGUMENT,
    /** A SensorML, CML or PCML document is malformed or does not validate. */
    INVALID_DOCUMENT,
    /** The thing to add exists already, or the operation conflicts with the current state. */
    CONFLICT,
    /** The sensor's plugin failed while serving the request. */
    PLUGIN_FAILURE,
    /** The agent or the sensor does not support the operation. */
    UNSUPPORTED,
    /** The request broke the wire protocol (no hello, wrong version, unknown codec). */
    PROTOCOL_ERROR,
    /** The agent is too busy to take the request now; retry later. */
    OVERLOADED,
    /** The credentials were missing or wrong. */
    UNAUTHENTICATED,
    /**
     * Not allowed: the connection's role may not make this call (a reader asking an admin
     * operation), or the agent's operator does not allow what it names (a plugin path outside the
     * plugin directories, a relay target not on the list).
     */
    PERMISSION_DENIED,
    /** An unexpected failure inside the agent; its log has the details. */
    INTERNAL
}
