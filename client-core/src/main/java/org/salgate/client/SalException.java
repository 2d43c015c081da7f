package org.salgate.client;

import java.util.Objects;
import org.salgate.model.ErrorCode;

/** Futures fail with this when the agent answers a request with a {@link org.salgate.model.Result.Failure}. */
public class SalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    /**
     * @param code why the agent failed the request
     * @param message the agent's explanation
     */
    public SalException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    /** Why the agent failed the request. */
    public ErrorCode code() {
        return code;
    }

    @Override
    public String toString() {
        return "SalException[" + code + "]: " + getMessage();
    }
}
