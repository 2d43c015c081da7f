package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.ByteBuffer;
import org.salgate.transport.FrameReader;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;

/**
 * The last handler of a channel: feeds the bytes Netty read to the shared {@link FrameReader} and
 * hands each whole message on, in order, on the channel's event loop. A malformed or oversize
 * frame, or any pipeline failure, closes the channel; the first failure is the one reported.
 */
abstract class FrameHandler extends ChannelInboundHandlerAdapter {

    private final FrameReader reader;
    private Throwable failure;

    FrameHandler(FrameReader reader) {
        this.reader = reader;
    }

    /** A whole message arrived. */
    abstract void deliver(Message message);

    /** Closes the channel after {@code cause}. */
    void close(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    /** Gives back what the reader held: the channel is closed. */
    final void releaseReader() {
        reader.release();
    }

    /** The failure that closed the channel, or null. */
    final Throwable failure() {
        return failure;
    }

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf bytes = (ByteBuf) msg;
        try {
            if (failure != null) {
                return;
            }
            for (ByteBuffer chunk : bytes.nioBuffers()) {
                reader.append(chunk);
            }
        } finally {
            bytes.release();
        }
        try {
            Message message;
            while (failure == null && (message = reader.next()) != null) {
                deliver(message);
            }
        } catch (CodecException e) {
            exceptionCaught(ctx, e);
        }
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        ctx.channel().config().setAutoRead(false);
        close(ctx, cause);
    }
}
