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

    private OutboundQueue<byte[]> queue(long low, long high, long max, MemoryBudget.Account account) {
        return new OutboundQueue<>(high, low, max, Framing::frameBytes, account, wakes::incrementAndGet);
    }

    @Test
    void aQueueDrawsWhatItHoldsFromItsAccountAndGivesItBackAsItIsWritten() {
        MemoryBudget budget = new MemoryBudget(10_000);
        MemoryBudget.Account account = budget.open("peer", () -> { });
        OutboundQueue<byte[]> q = queue(100, 1000, 5000, account);
        q.offer(new byte[96]);
        q.offer(new byte[196]);
        assertEquals(300, account.held(), "each frame counts with its length prefix");
        OutboundQueue.Batch<byte[]> batch = q.next();
        assertEquals(300, account.held(), "bytes handed to the library still count until written");
        q.written(100);
        assertEquals(200, account.held());
        q.written(batch.bytes() - 100);
        assertEquals(0, budget.held());
    }

    @Test
    void discardingGivesBackWhatWaitedAndWhatTheLibraryHeldAndClosesTheAccount() {
        MemoryBudget budget = new MemoryBudget(10_000);
        MemoryBudget.Account account = budget.open("peer", () -> { });
        OutboundQueue<byte[]> q = queue(100, 1000, 5000, account);
        q.offer(new byte[500]);
        OutboundQueue.Batch<byte[]> inLibrary = q.next();
        q.offer(new byte[300]);
        q.discard();
        assertTrue(account.isClosed());
        assertEquals(0, budget.held());
        assertEquals(0, budget.connections());
        q.written(inLibrary.bytes()); // the library reports the dropped write later
        assertEquals(0, budget.held());
    }

    @Test
    void aFrameTheBudgetRefusesIsOverLimitAndSaysSo() {
        MemoryBudget budget = new MemoryBudget(1000);
        MemoryBudget.Account other = budget.open("other", () -> { });
        MemoryBudget.Account account = budget.open("peer", () -> { });
        other.take(300);
        OutboundQueue<byte[]> q = queue(100, 1000, 5000, account);
        assertEquals(OutboundQueue.Offer.QUEUED, q.offer(new byte[596]));
        assertFalse(q.refusedByBudget());

        assertEquals(OutboundQueue.Offer.OVER_LIMIT, q.offer(new byte[196]), "the budget's bound was passed");
        assertTrue(q.refusedByBudget());
        assertEquals(600, q.queuedBytes(), "a refused frame was queued");
        assertEquals(900, budget.held());
        assertFalse(other.isClosed(), "a smaller connection was evicted for the largest one");
    }

    @Test
    void aFramePastTheQueuesOwnLimitIsNotBlamedOnTheBudget() {
        MemoryBudget budget = new MemoryBudget(1_000_000);
        OutboundQueue<byte[]> q = queue(10, 100, 150, budget.open("peer", () -> { }));
        q.offer(new byte[100]);
        assertEquals(OutboundQueue.Offer.OVER_LIMIT, q.offer(new byte[100]));
        assertFalse(q.refusedByBudget());
        assertEquals(104, budget.held(), "the refused frame was taken from the budget");
    }
}
