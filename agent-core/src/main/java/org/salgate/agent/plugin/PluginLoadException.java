package org.salgate.agent.plugin;

import java.util.Objects;
import org.salgate.model.ErrorCode;

/** A plugin could not be loaded from where it was asked for; the message says why and what to do. */
public class PluginLoadException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public PluginLoadException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    /** How the failure is reported to a client. */
    public ErrorCode code() {
        return code;
    }
}
