package org.salgate.transport.grpc;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/**
 * Gives each call's {@link CallBudget} the call, serialized ({@link SerializedCall}) so that the
 * budget may cut it, and tells the budget when the service has taken a message of a streaming call.
 * Installed on the server, ahead of every service.
 */
final class CallGuard implements ServerInterceptor {

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        CallBudget budget = CallBudget.current();
        SerializedCall<Q, R> serialized = new SerializedCall<>(call);
        if (budget == null) {
            return next.startCall(serialized, headers);
        }
        budget.attach(serialized);
        ServerCall.Listener<Q> listener = next.startCall(serialized, headers);
        if (!budget.releasesOnDelivery()) {
            return listener;
        }
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
            @Override
            public void onMessage(Q message) {
                try {
                    super.onMessage(message);
                } finally {
                    budget.delivered();
                }
            }
        };
    }
}
