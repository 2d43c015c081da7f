package org.salgate.transport.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import org.salgate.transport.Session;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;

/**
 * A server session on a WebSocket: each message is encoded with the connection's codec into one
 * binary WebSocket message. Writability is the channel's, with the server's water marks; Netty
 * counts a write against them as soon as it is handed over, from whatever thread.
 */
final class WebSocketSession implements Session {

    /** How long {@link #close()} waits for what was sent to drain before closing anyway. */
    static final long CLOSE_FLUSH_GRACE_MILLIS = 2_000;

    private final long id;
    private final Channel channel;
    private final ConnectionCodec codec;
    private volatile Runnable writabilityListener;

    WebSocketSession(long id, Channel channel, ConnectionCodec codec) {
        this.id = id;
        this.channel = channel;
        this.codec = codec;
    }

    ConnectionCodec codec() {
        return codec;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public String remoteAddress() {
        SocketAddress address = channel.remoteAddress();
        return address == null ? "unknown" : address.toString();
    }

    @Override
    public void send(Message message) {
        if (!channel.isActive()) {
            return;
        }
        channel.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(codec.encode(message))),
                channel.voidPromise());
    }

    @Override
    public boolean isWritable() {
        return channel.isWritable();
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        this.writabilityListener = listener;
    }

    void fireWritable() {
        Runnable listener = writabilityListener;
        if (listener != null) {
            listener.run();
        }
    }

    @Override
    public boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close() {
        if (!channel.isActive()) {
            return;
        }
        channel.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE))
                .addListener(ChannelFutureListener.CLOSE);
        channel.eventLoop().schedule(() -> {
            channel.close();
        }, CLOSE_FLUSH_GRACE_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public String toString() {
        return "websocket session " + id + " (" + remoteAddress() + ")";
    }
}
