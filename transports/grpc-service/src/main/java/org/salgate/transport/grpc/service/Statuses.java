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

    static Status code(ErrorCode code) {
        switch (code) {
            case UNKNOWN_SENSOR:
            case UNKNOWN_COMMAND:
            case UNKNOWN_STREAM:
            case UNKNOWN_PROTOCOL:
                return Status.NOT_FOUND;
            case INVALID_ARGUMENT:
            case INVALID_DOCUMENT:
            case PROTOCOL_ERROR:
                return Status.INVALID_ARGUMENT;
            case CONFLICT:
                return Status.ALREADY_EXISTS;
            case PLUGIN_FAILURE:
                return Status.UNAVAILABLE;
            case UNSUPPORTED:
                return Status.UNIMPLEMENTED;
            case OVERLOADED:
                return Status.RESOURCE_EXHAUSTED;
            case UNAUTHENTICATED:
                return Status.UNAUTHENTICATED;
            case PERMISSION_DENIED:
                return Status.PERMISSION_DENIED;
            case INTERNAL:
                return Status.INTERNAL;
            default:
                return Status.UNKNOWN;
        }
    }
}
