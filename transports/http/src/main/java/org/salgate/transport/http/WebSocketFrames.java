package org.salgate.transport.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import java.util.List;
import org.salgate.transport.OutboundQueue;
import org.salgate.transport.netty.ChannelWriter;

/**
 * How a WebSocket connection's queue reaches its channel, server and client alike: each message one
 * binary WebSocket message; a graceful close ends with a close frame.
 */
final class WebSocketFrames implements ChannelWriter.Carrier {

    static final WebSocketFrames INSTANCE = new WebSocketFrames();

    private WebSocketFrames() {
    }

    @Override
    public ChannelFuture write(Channel channel, OutboundQueue.Batch<byte[]> batch) {
        List<byte[]> items = batch.items();
        int last = items.size() - 1;
        for (int i = 0; i < last; i++) {
            channel.write(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(items.get(i))), channel.voidPromise());
        }
        return channel.write(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(items.get(last))));
    }

    @Override
    public Object farewell() {
        return new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE);
    }
}
