package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.salgate.transport.FrameReader;
import org.salgate.transport.HandlerCalls;
import org.salgate.wire.CodecException;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;

/**
 * The last handler of a netty transport connection, either side: feeds the bytes read to the
 * shared {@link FrameReader} and hands each message on. A bad frame or any failure closes the
 * channel, the first one reported as its end; a peer speaking HTTP is answered 400 first.
 */
final class FrameHandler extends ChannelInboundHandlerAdapter {

    private final FrameReader reader;
    private final Runnable opened;
    private final Consumer<Message> received;
    private final Consumer<Throwable> closed;
    private Throwable failure;

    FrameHandler(FrameReader reader, Runnable opened, Consumer<Message> received, Consumer<Throwable> closed) {
        this.reader = reader;
        this.opened = opened;
        this.received = received;
        this.closed = closed;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        HandlerCalls.run(opened, "opening", ctx.channel());
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf bytes = (ByteBuf) msg;
        try {
            if (failure != null) {
                return;
            }
            for (ByteBuffer chunk : bytes.nioBuffers()) {
                reader.append(chunk);
            }
            Message message;
            while (failure == null && (message = reader.next()) != null) {
                HandlerCalls.accept(received, message, "a message", ctx.channel());
            }
        } catch (CodecException e) {
            exceptionCaught(ctx, e);
        } finally {
            bytes.release();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        ctx.channel().config().setAutoRead(false);
        if (cause instanceof Framing.HttpRequestException) {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(Framing.httpBadRequest())).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        reader.release();
        HandlerCalls.accept(closed, failure, "closing", ctx.channel());
        ctx.fireChannelInactive();
    }
}
