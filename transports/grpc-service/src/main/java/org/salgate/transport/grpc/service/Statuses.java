package org.salgate.transport.grpc.service;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.salgate.model.ErrorCode;
import org.salgate.model.Result;

/** The gRPC status of a salgate failure: the code mapped from its {@link ErrorCode}, the agent's own words. */
final class Statuses {

    private Statuses() {}

    static StatusRuntimeException of(Result.Failure failure) {
        return code(failure.code()).withDescription(failure.message()).asRuntimeException();
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
