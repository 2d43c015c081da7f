package org.salgate.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Bytes handed to an {@code EmbeddedChannel} the way an event loop hands a connection its reads:
 * in runs of reads, each run one {@code channelReadComplete}. For the tests of what a decoder holds
 * while large messages arrive (here and in the http transport's tests).
 */
public final class ReadRuns {

    private ReadRuns() {
    }

    /**
     * Gives {@code receiver} all of {@code wire} in runs of {@code readsPerRun} reads of
     * {@code readBytes}, each read a buffer of {@code allocator}, which should be the receiver's.
     *
     * @return the most {@code allocator} held, heap and direct, after any run
     */
    public static long deliver(EmbeddedChannel receiver, UnpooledByteBufAllocator allocator, byte[] wire,
            int readBytes, int readsPerRun) {
        long largestHeld = 0;
        for (int offset = 0; offset < wire.length; ) {
            List<ByteBuf> run = new ArrayList<>();
            for (int i = 0; i < readsPerRun && offset < wire.length; i++) {
                int length = Math.min(readBytes, wire.length - offset);
                run.add(allocator.heapBuffer(length).writeBytes(wire, offset, length));
                offset += length;
            }
            receiver.writeInbound(run.toArray());
            ByteBufAllocatorMetric metric = allocator.metric();
            largestHeld = Math.max(largestHeld, metric.usedHeapMemory() + metric.usedDirectMemory());
        }
        return largestHeld;
    }

    /** Everything {@code sender} has written so far, as one array; its buffers are released. */
    public static byte[] written(EmbeddedChannel sender) {
        ByteBuf wire = Unpooled.buffer();
        for (ByteBuf part; (part = sender.readOutbound()) != null; ) {
            wire.writeBytes(part);
            part.release();
        }
        byte[] bytes = new byte[wire.readableBytes()];
        wire.readBytes(bytes);
        return bytes;
    }
}
