package org.salgate.agent.core;

import java.util.Objects;
import org.salgate.model.ErrorCode;

/**
 * A SAL call failed in a way the client should hear about: the code and a one-sentence message
 * become the {@link org.salgate.model.Result.Failure} of the response.
 */
public class CallException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public CallException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    public CallException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
    }

    /** Why the call failed. */
    public ErrorCode code() {
        return code;
    }
}
