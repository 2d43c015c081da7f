package org.salgate.client;

import java.io.IOException;
import java.util.Locale;
import org.salgate.model.ErrorCode;

/**
 * The agent answered the hello with a refusal (wrong protocol version, unknown codec, bad
 * credentials, or it serves its maximum of sessions).
 */
public class HelloRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final String reason;

    public HelloRefusedException(String address, ErrorCode code, String reason) {
        super("the agent at " + address + " refused the connection"
                + (code == ErrorCode.PROTOCOL_ERROR ? "" : " (" + code.name().toLowerCase(Locale.ROOT) + ")")
                + ": " + reason);
        this.code = code;
        this.reason = reason;
    }

    /**
     * Why: {@link ErrorCode#UNAUTHENTICATED} for a missing or wrong token, {@link ErrorCode#OVERLOADED}
     * when the agent serves its maximum of sessions (retry later), else {@link ErrorCode#PROTOCOL_ERROR}.
     */
    public ErrorCode code() {
        return code;
    }

    /** The agent's reason, as it gave it. */
    public String reason() {
        return reason;
    }
}
