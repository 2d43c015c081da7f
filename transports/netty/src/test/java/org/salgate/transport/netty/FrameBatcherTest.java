package org.salgate.transport.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FrameBatcherTest {

    private final RecordingAllocator allocator = new RecordingAllocator();
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final AtomicInteger writableCalls = new AtomicInteger();

    FrameBatcherTest() {
        channel.config().setAllocator(allocator);
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void framesSentBeforeTheEventLoopRunsLeaveTogetherWithTheirLengthsInOrder() {
        FrameBatcher batcher = new FrameBatcher(channel, 1 << 20, writableCalls::incrementAndGet);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 1000; i++) {
            byte[] body = {(byte) i, (byte) (i >> 8), 7};
            expected.writeBytes(ByteBuffer.allocate(4).putInt(body.length).array());
            expected.writeBytes(body);
            assertTrue(batcher.add(body));
        }
        assertTrue(channel.outboundMessages().isEmpty(), "nothing is written before the event loop runs");
        assertEquals(expected.size(), batcher.waitingBytes());

        channel.runPendingTasks();

        assertArrayEquals(expected.toByteArray(), written());
        assertTrue(allocator.buffers.size() <= 1 + expected.size() / FrameBatcher.SHARED_BUFFER_BYTES,
                allocator.buffers.size() + " buffers for " + expected.size() + " bytes of small frames");
        assertEquals(0, batcher.waitingBytes());
    }

    @Test
    void aLargeFrameGetsABufferOfItsOwnBetweenSharedOnes() {
        FrameBatcher batcher = new FrameBatcher(channel, 1 << 20, writableCalls::incrementAndGet);
        byte[] large = new byte[80 * 1024];
        large[large.length - 1] = 42;
        batcher.add(new byte[] {1});
        batcher.add(large);
        batcher.add(new byte[] {2});
        channel.runPendingTasks();

        assertEquals(3, allocator.buffers.size(), "shared, large, shared");
        assertEquals(4 + large.length, allocator.buffers.get(1).capacity());
        byte[] out = written();
        assertEquals(3 * 4 + 2 + large.length, out.length);
        assertEquals(42, out[4 + 1 + 4 + large.length - 1]);
        assertEquals(2, out[out.length - 1]);
    }

    @Test
    void waitingFramesCountTowardsTheHighWaterMarkAndTheHandOverRunsTheListener() {
        FrameBatcher batcher = new FrameBatcher(channel, 100, writableCalls::incrementAndGet);
        batcher.add(new byte[60]);
        assertTrue(batcher.isWritable(), "64 waiting bytes are below the mark");
        batcher.add(new byte[60]);
        assertFalse(batcher.isWritable(), "128 waiting bytes reach the mark");
        assertEquals(0, writableCalls.get());

        channel.runPendingTasks();

        assertEquals(1, writableCalls.get(), "the listener runs once the held-back frames left");
        assertTrue(batcher.isWritable());
        batcher.add(new byte[1]);
        channel.runPendingTasks();
        assertEquals(1, writableCalls.get(), "no listener when nothing was held back");
    }

    @Test
    void discardReleasesWhatWaitsAndDropsLaterFrames() {
        FrameBatcher batcher = new FrameBatcher(channel, 1 << 20, writableCalls::incrementAndGet);
        batcher.add(new byte[10]);
        batcher.add(new byte[100 * 1024]);
        batcher.discard();

        assertFalse(batcher.add(new byte[10]), "a frame after the discard is dropped");
        for (ByteBuf buffer : allocator.buffers) {
            assertEquals(0, buffer.refCnt(), "a waiting buffer was not released");
        }
        assertEquals(0, batcher.waitingBytes());
        channel.runPendingTasks();
        assertTrue(channel.outboundMessages().isEmpty());
    }

    private byte[] written() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf buffer = channel.readOutbound(); buffer != null; buffer = channel.readOutbound()) {
            byte[] bytes = new byte[buffer.readableBytes()];
            buffer.readBytes(bytes);
            buffer.release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    /** Hands out unpooled buffers and remembers them. */
    private static final class RecordingAllocator extends AbstractByteBufAllocator {
        final List<ByteBuf> buffers = new ArrayList<>();

        RecordingAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return Unpooled.buffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf buffer = Unpooled.directBuffer(initialCapacity, maxCapacity);
            buffers.add(buffer);
            return buffer;
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }
}
