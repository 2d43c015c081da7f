package org.salgate.wire;

import org.salgate.model.Result;
import org.salgate.model.ErrorCode;

import java.util.Objects;

/**
 * The agent's answer to the {@link Request} with the same id.
 *
 * @param id the id of the request answered
 * @param result the outcome: a typed result or a {@link Result.Failure}
 */
public record Response(long id, Result result) implements Message {
    public Response {
        Objects.requireNonNull(result, "result");
    }

    public static Response failure(long id, ErrorCode code, String message) {
        return new Response(id, new Result.Failure(code, message));
    }
}
