package org.salgate.agent.session;

import org.salgate.model.Call;
import org.salgate.model.Operation;

/**
 * What a client may do. A {@link #READER} lists and describes sensors, lists their commands,
 * executes them, streams and receives events; an {@link #ADMIN} may also change the platform (add
 * and remove protocols and sensors), read its configuration and write devices' channels (the
 * agent's handler checks that last one, which depends on the sensor).
 */
public enum Role {
    READER,
    ADMIN;

    /** The role's name as written in a tokens file. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether this role may make {@code call}: an admin any, a reader all but the admin-only operations. */
    public boolean mayCall(Call call) {
        return this == ADMIN || !Operation.of(call).adminOnly();
    }
}
