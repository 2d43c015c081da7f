package org.salgate.transport.grpc.service;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.CompletionException;
import org.salgate.model.ErrorCode;
import org.salgate.model.Result;
import org.salgate.transport.bridge.BridgeSession;

/**
 * The gRPC status a typed call ends with: a salgate failure's code mapped from its {@link ErrorCode},
 * with the agent's own words, or why the agent gave none.
 */
final class Statuses {

    private Statuses() {}

    /** The status of a call that ended with {@code error}, or else with the failure {@code result}. */
    static StatusRuntimeException of(Throwable error, Result result) {
        if (error == null && result instanceof Result.Failure failure) {
            return code(failure.code()).withDescription(failure.message()).asRuntimeException();
        }
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof BridgeSession.SessionClosedException) {
            return Status.UNAVAILABLE.withDescription("the agent closed the session: " + cause.getMessage())
                    .asRuntimeException();
        }
        return Status.INTERNAL.withDescription(cause.toString()).asRuntimeException();
    }

    /** Every code has its status: a new one does not compile until it is given one. */
    static Status code(ErrorCode code) {
        return switch (code) {
            case UNKNOWN_SENSOR, UNKNOWN_COMMAND, UNKNOWN_STREAM, UNKNOWN_PROTOCOL -> Status.NOT_FOUND;
            case INVALID_ARGUMENT, INVALID_DOCUMENT, PROTOCOL_ERROR -> Status.INVALID_ARGUMENT;
            case CONFLICT -> Status.ALREADY_EXISTS;
            case PLUGIN_FAILURE -> Status.UNAVAILABLE;
            case UNSUPPORTED -> Status.UNIMPLEMENTED;
            case OVERLOADED -> Status.RESOURCE_EXHAUSTED;
            case UNAUTHENTICATED -> Status.UNAUTHENTICATED;
            case PERMISSION_DENIED -> Status.PERMISSION_DENIED;
            case INTERNAL -> Status.INTERNAL;
        };
    }
}
