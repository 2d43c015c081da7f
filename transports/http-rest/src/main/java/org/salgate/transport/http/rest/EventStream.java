package org.salgate.transport.http.rest;

import org.salgate.transport.http.Exchange;
import org.salgate.transport.http.Replies;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.wire.EventNotice;
import org.salgate.wire.Message;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;

/**
 * A Server-Sent Events answer fed by a {@link BridgeSession}: one event per reading, whose
 * {@code id:} is the reading's sequence number, or one per agent event, numbered from 0. When the
 * agent ends the stream, an {@code end} event says why and the connection closes; when the caller
 * goes away, the session closes and the agent stops the stream. A request that is one call is
 * answered through one that never begins.
 *
 * <p>The session hands over its pushed messages only once the headers went out, and while the
 * connection takes more: before, they wait in the session's queue, counted against its bounds. They
 * are written as they come and flushed once per batch ({@link BridgeSession.Sink#delivered}), so a
 * stream that runs ahead of the socket leaves in few writes; the agent resumes a held stream when
 * the channel drains.
 */
final class EventStream implements BridgeSession.Sink {

    private final Exchange exchange;
    private volatile boolean begun;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicLong eventIds = new AtomicLong();

    EventStream(Exchange exchange) {
        this.exchange = exchange;
    }

    /** Whether the session may hand over pushed messages now. */
    boolean writable() {
        return begun && exchange.channel().isWritable();
    }

    /** Sends the event-stream headers, then what was pushed before them; the connection is this stream's from now on. */
    void begin(BridgeSession session) {
        exchange.stream(session::writableAgain);
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        HttpUtil.setTransferEncodingChunked(response, true);
        exchange.channel().writeAndFlush(response, exchange.channel().voidPromise());
        begun = true;
        session.writableAgain();
    }

    @Override
    public void pushed(Message message) {
        if (message instanceof StreamData data) {
            send("id: " + data.reading().sequence(), reading(data.reading()));
        } else if (message instanceof EventNotice notice) {
            ObjectNode event = Replies.JSON.valueToTree(notice.event());
            if (notice.event().state() == null) {
                event.remove("state"); // an event about no sensor's state
            }
            send("id: " + eventIds.getAndIncrement(), event);
        } else if (message instanceof StreamEnded end) {
            send("event: end", Replies.JSON.createObjectNode().put("reason", end.reason()));
            end();
        }
    }

    @Override
    public void delivered() {
        exchange.channel().flush();
    }

    /** The agent closed the session: the stream ends. The caller closes it with its connection, or after {@link #finish}. */
    @Override
    public void closed(boolean byAgent) {
        if (byAgent) {
            end();
        }
    }

    /**
     * The request's last answer: before the headers went out, {@code response} answers the request;
     * after them, an {@code error} event of its JSON ends the stream.
     */
    void finish(FullHttpResponse response) {
        if (!begun) {
            exchange.respond(response);
            return;
        }
        send("event: error", response.content().toString(StandardCharsets.UTF_8));
        response.release();
        end();
    }

    /** An event: its {@code id} or {@code event} field, and its data, one line of JSON. */
    private void send(String field, Object json) {
        if (!ended.get()) {
            exchange.channel().write(new DefaultHttpContent(Unpooled.copiedBuffer(field + "\ndata: " + json + "\n\n",
                    StandardCharsets.UTF_8)), exchange.channel().voidPromise());
        }
    }

    private void end() {
        if (ended.compareAndSet(false, true) && begun) {
            exchange.channel().writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /**
     * The JSON of a reading, as the OpenAPI document's Reading: its value as JSON can hold it (bytes in
     * base64, which is how Jackson writes them), and its device time and error when it has them.
     */
    static ObjectNode reading(Reading r) {
        Value v = r.value();
        Object value = v instanceof Value.Num n ? (Double.isFinite(n.value()) ? n.value() : null)
                : v instanceof Value.Int i ? i.value()
                : v instanceof Value.Text t ? t.value()
                : v instanceof Value.Bytes b ? b.value() : null; // none, or a number JSON cannot hold
        return Replies.JSON.valueToTree(new ReadingJson(r.sensorId(), r.sequence(), r.timestampMicros(), r.status(),
                value, v instanceof Value.Bytes ? "base64" : null, r.unit(),
                r.deviceTimeMicros() != 0 ? r.deviceTimeMicros() : null, r.error().isEmpty() ? null : r.error()));
    }

    /** The members of a reading's JSON, in order; those that are null are left out, but for the value. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private record ReadingJson(String sensor, long sequence, long timestampMicros, Reading.Status status,
                               @JsonInclude(JsonInclude.Include.ALWAYS) Object value, String encoding, String unit,
                               Long deviceTimeMicros, String error) {
    }
}
