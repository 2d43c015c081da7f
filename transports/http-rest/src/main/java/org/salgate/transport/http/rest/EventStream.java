package org.salgate.transport.http.rest;

import org.salgate.transport.http.Exchange;
import org.salgate.transport.http.Replies;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.wire.EventNotice;
import org.salgate.wire.Message;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;

/**
 * A Server-Sent Events answer fed by a {@link BridgeSession}: one event per reading, whose
 * {@code id:} is the reading's sequence number, or one per agent event, numbered from 0. When the
 * agent ends the stream, an {@code end} event says why and the connection closes; when the caller
 * goes away, the session closes and the agent stops the stream.
 *
 * <p>Events are written as they come and flushed once per batch the session hands over
 * ({@link BridgeSession.Sink#delivered}), so a stream that runs ahead of the socket leaves in few
 * writes. Backpressure is the connection's: the session is writable while the channel is, and the
 * agent resumes a held stream when the channel drains.
 */
final class EventStream implements BridgeSession.Sink {

    private final Exchange exchange;
    private final Channel channel;
    /** Written under this object's lock, which the pushes before the headers wait on. */
    private volatile boolean begun;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicLong eventIds = new AtomicLong();
    /** Guarded by this: what was pushed before the headers went out. */
    private List<Message> beforeBegin = new ArrayList<>();

    EventStream(Exchange exchange) {
        this.exchange = exchange;
        this.channel = exchange.channel();
    }

    /**
     * Sends the event-stream headers, then what was pushed before them; from now on the connection
     * is this stream's.
     */
    void begin(BridgeSession session) {
        synchronized (this) {
            begun = true;
            exchange.stream(session::writableAgain);
            HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
            HttpUtil.setTransferEncodingChunked(response, true);
            channel.writeAndFlush(response, channel.voidPromise());
            List<Message> early = beforeBegin;
            beforeBegin = null;
            early.forEach(this::pushed); // under the lock, so that no later push overtakes them
            channel.flush();
        }
    }

    @Override
    public void pushed(Message message) {
        synchronized (this) {
            if (!begun) {
                beforeBegin.add(message); // pushed while the call that starts the stream is answered
                return;
            }
        }
        if (message instanceof StreamData data) {
            send("id: " + data.reading().sequence(), JsonViews.reading(data.reading()));
        } else if (message instanceof EventNotice notice) {
            send("id: " + eventIds.getAndIncrement(), JsonViews.event(notice.event()));
        } else if (message instanceof StreamEnded end) {
            send("event: end", Replies.JSON.createObjectNode().put("reason", end.reason()));
            end();
        }
    }

    @Override
    public void delivered() {
        channel.flush();
    }

    @Override
    public void closed(boolean byAgent) {
        end();
    }

    /**
     * The stream failed: before its headers went out, the error answers the request; after them, an
     * {@code error} event with the error's JSON ends the stream.
     */
    void fail(FullHttpResponse error) {
        synchronized (this) {
            if (!begun) {
                ended.set(true);
                exchange.respond(error);
                return;
            }
        }
        send("event: error", error.content().toString(StandardCharsets.UTF_8));
        error.release();
        end();
    }

    /** An event: its {@code id} or {@code event} field, and its data, one line of JSON. */
    private void send(String field, Object json) {
        if (!ended.get()) {
            channel.write(new DefaultHttpContent(Unpooled.copiedBuffer(field + "\ndata: " + json + "\n\n",
                    StandardCharsets.UTF_8)), channel.voidPromise());
        }
    }

    private void end() {
        if (ended.compareAndSet(false, true) && begun) {
            channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
