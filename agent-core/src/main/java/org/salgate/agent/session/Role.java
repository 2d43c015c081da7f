package org.salgate.agent.session;

import org.salgate.model.Call;

/**
 * What a client may do. A {@link #READER} lists and describes sensors, lists their commands,
 * executes them, streams and receives events; an {@link #ADMIN} may also change the platform (add
 * and remove protocols and sensors) and read its configuration.
 */
public enum Role {
    READER,
    ADMIN;

    /** The role's name as written in a tokens file. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether this role may make {@code call}. */
    public boolean mayCall(Call call) {
        return this == ADMIN || adminOperation(call) == null;
    }

    /** The name of the admin operation {@code call} is, or null when any role may make it. */
    public static String adminOperation(Call call) {
        if (call instanceof Call.AddProtocol) {
            return "add protocol";
        } else if (call instanceof Call.RemoveProtocol) {
            return "remove protocol";
        } else if (call instanceof Call.AddSensor) {
            return "add sensor";
        } else if (call instanceof Call.RemoveSensor) {
            return "remove sensor";
        } else if (call instanceof Call.GetPlatformConfig) {
            return "get platform config";
        }
        return null;
    }
}
