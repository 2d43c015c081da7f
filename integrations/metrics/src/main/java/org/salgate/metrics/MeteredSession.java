package org.salgate.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.salgate.transport.Session;
import org.salgate.wire.EventNotice;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.SharedMessage;
import org.salgate.wire.StreamData;

/** A session whose outgoing answers, readings and events are counted on their way to the real one. */
final class MeteredSession implements Session {

    private final Session inner;
    private final String transport;
    private final GatewayMetrics metrics;
    private final Map<Long, String> operations = new ConcurrentHashMap<>();

    MeteredSession(Session inner, String transport, GatewayMetrics metrics) {
        this.inner = inner;
        this.transport = transport;
        this.metrics = metrics;
    }

    void requested(Request request) {
        operations.put(request.id(), request.call().getClass().getSimpleName());
    }

    @Override
    public void send(Message message) {
        if (message instanceof StreamData) {
            metrics.readingDelivered(transport);
        } else if (message instanceof Response response) {
            String operation = operations.remove(response.id());
            Result result = response.result();
            metrics.request(transport, operation == null ? "unknown" : operation,
                    result instanceof Result.Failure f ? f.code().name() : "OK");
        } else if (message instanceof EventNotice) {
            metrics.eventDelivered(transport);
        }
        inner.send(message);
    }

    @Override
    public void send(SharedMessage message) {
        if (message.message() instanceof StreamData) {
            metrics.readingDelivered(transport);
        }
        inner.send(message);
    }

    @Override
    public long id() {
        return inner.id();
    }

    @Override
    public String remoteAddress() {
        return inner.remoteAddress();
    }

    @Override
    public boolean isWritable() {
        return inner.isWritable();
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        inner.setWritabilityListener(listener);
    }

    @Override
    public long bytesReceived() {
        return inner.bytesReceived();
    }

    @Override
    public long bytesSent() {
        return inner.bytesSent();
    }

    @Override
    public long queuedBytes() {
        return inner.queuedBytes();
    }

    @Override
    public void closeNow(String reason) {
        inner.closeNow(reason);
    }

    @Override
    public void limitFramesUntilHello(int maxFrameBytes) {
        inner.limitFramesUntilHello(maxFrameBytes);
    }

    @Override
    public void helloAccepted() {
        inner.helloAccepted();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public void close() {
        inner.close();
    }
}
