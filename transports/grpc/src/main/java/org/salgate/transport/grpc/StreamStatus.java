package org.salgate.transport.grpc;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;

/**
 * Keeps the status a call's stream closed with, for its session: a cancel handler is not told why,
 * and a message above the limit (RESOURCE_EXHAUSTED) must close the session with a cause where a
 * client that simply went away (CANCELLED) does not.
 */
final class StreamStatus extends ServerStreamTracer {

    static final ServerStreamTracer.Factory FACTORY = new ServerStreamTracer.Factory() {
        @Override
        public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
            return new StreamStatus();
        }
    };

    private static final Context.Key<StreamStatus> KEY = Context.key("salgate-stream-status");

    private volatile Status closed;

    @Override
    public Context filterContext(Context context) {
        return context.withValue(KEY, this);
    }

    @Override
    public void streamClosed(Status status) {
        closed = status;
    }

    /** Why the stream of {@code context}'s call ended, when it was an error other than a cancel; else null. */
    static Throwable errorOf(Context context) {
        StreamStatus tracer = KEY.get(context);
        Status status = tracer == null ? null : tracer.closed;
        if (status == null || status.isOk() || status.getCode() == Status.Code.CANCELLED) {
            return null;
        }
        return status.asException();
    }
}
