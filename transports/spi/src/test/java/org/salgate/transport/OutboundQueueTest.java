package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.salgate.wire.Framing;

class OutboundQueueTest {

    private final AtomicInteger wakes = new AtomicInteger();
    private final AtomicInteger writable = new AtomicInteger();

    private OutboundQueue<byte[]> queue(long low, long high, long max) {
        OutboundQueue<byte[]> q = OutboundQueue.framed(high, low, max, wakes::incrementAndGet);
        q.setWritabilityListener(writable::incrementAndGet);
        return q;
    }

    @Test
    void onlyTheFirstFrameOfADrainWakesTheWriter() {
        OutboundQueue<byte[]> q = queue(100, 1000, 10_000);
        q.offer(new byte[10]);
        q.offer(new byte[10]);
        assertEquals(1, wakes.get());
        assertEquals(2, q.next().items().size());
        assertTrue(q.next().isEmpty(), "the drain should be over");
        q.offer(new byte[10]);
        assertEquals(2, wakes.get());
    }

    @Test
    void framesAreMergedUpToTheBatchSizeWithTheirLengths() {
        OutboundQueue<byte[]> q = queue(100, OutboundQueue.BATCH_BYTES * 4L, OutboundQueue.BATCH_BYTES * 4L);
        for (int i = 0; i < 100; i++) {
            q.offer(new byte[] {(byte) i, 1, 2});
        }
        OutboundQueue.Batch<byte[]> batch = q.next();
        assertEquals(100, batch.items().size());
        assertEquals(700, batch.bytes());
        ByteBuffer framed = Framing.toBuffer(batch.items(), batch.bytes());
        assertEquals(3, framed.getInt());
        assertEquals(0, framed.get());
        framed.position(7 * 99);
        assertEquals(3, framed.getInt());
        assertEquals(99, framed.get());

        q.offer(new byte[OutboundQueue.BATCH_BYTES]);
        q.offer(new byte[1]);
        assertEquals(1, q.next().items().size(), "a frame larger than a batch travels alone");
        assertEquals(1, q.next().items().size());
    }

    @Test
    void writabilityTurnsAtTheHighMarkAndBackBelowTheLowMarkOnce() {
        OutboundQueue<byte[]> q = queue(100, 200, 10_000);
        q.offer(new byte[96]);
        assertTrue(q.isWritable());
        q.offer(new byte[96]);
        assertFalse(q.isWritable(), "200 bytes queued reach the high-water mark");
        OutboundQueue.Batch<byte[]> batch = q.next();
        q.written(100);
        assertFalse(q.isWritable(), "100 bytes are not below the low-water mark");
        q.written(batch.bytes() - 100);
        assertTrue(q.isWritable());
        assertEquals(1, writable.get());
        assertEquals(0, q.queuedBytes());
    }

    @Test
    void aFramePastTheLimitIsRefusedAndAClosedQueueDropsFrames() {
        OutboundQueue<byte[]> q = queue(10, 100, 150);
        assertEquals(OutboundQueue.Offer.QUEUED, q.offer(new byte[100]));
        assertEquals(OutboundQueue.Offer.OVER_LIMIT, q.offer(new byte[100]));
        q.discard();
        assertEquals(OutboundQueue.Offer.CLOSED, q.offer(new byte[1]));
        assertTrue(q.next().isEmpty());
    }
}
