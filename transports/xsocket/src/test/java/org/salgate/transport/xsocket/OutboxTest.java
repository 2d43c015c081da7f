package org.salgate.transport.xsocket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class OutboxTest {

    @Test
    void smallFramesLeaveAsOneBufferInOrder() {
        Outbox outbox = new Outbox();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 1000; i++) {
            byte[] frame = {(byte) i, (byte) (i >> 8), 7};
            expected.writeBytes(frame);
            outbox.add(ByteBuffer.wrap(frame));
        }
        ByteBuffer[] taken = outbox.take();
        assertEquals(1, taken.length);
        assertArrayEquals(expected.toByteArray(), bytesOf(taken));
    }

    @Test
    void largeFrameKeepsItsOwnBufferBetweenMergedRuns() {
        Outbox outbox = new Outbox();
        ByteBuffer large = ByteBuffer.allocate(80 * 1024);
        outbox.add(ByteBuffer.wrap(new byte[] {1}));
        outbox.add(ByteBuffer.wrap(new byte[] {2}));
        outbox.add(large);
        outbox.add(ByteBuffer.wrap(new byte[] {3}));
        outbox.add(ByteBuffer.wrap(new byte[] {4}));
        ByteBuffer[] taken = outbox.take();
        assertEquals(3, taken.length);
        assertSame(large, taken[1], "an 80 KB frame is handed on as it is, not copied");
        assertArrayEquals(new byte[] {1, 2}, bytesOf(new ByteBuffer[] {taken[0]}));
        assertArrayEquals(new byte[] {3, 4}, bytesOf(new ByteBuffer[] {taken[2]}));
    }

    @Test
    void mergedBuffersStayBelowTheirLimit() {
        Outbox outbox = new Outbox();
        int frames = 3 * Outbox.MERGED_MAX_BYTES / 1000;
        for (int i = 0; i < frames; i++) {
            outbox.add(ByteBuffer.allocate(1000));
        }
        ByteBuffer[] taken = outbox.take();
        long total = 0;
        for (ByteBuffer b : taken) {
            assertTrue(b.remaining() <= Outbox.MERGED_MAX_BYTES);
            total += b.remaining();
        }
        assertEquals(frames * 1000L, total);
        assertTrue(taken.length <= 4, taken.length + " buffers");
    }

    @Test
    void bytesCountWhatIsHeldUntilTaken() {
        Outbox outbox = new Outbox();
        outbox.add(ByteBuffer.allocate(10));
        outbox.add(ByteBuffer.allocate(20_000));
        assertEquals(20_010, outbox.bytes());
        outbox.take();
        assertEquals(0, outbox.bytes());
        assertTrue(outbox.isEmpty());
        assertEquals(0, outbox.take().length);
    }

    private static byte[] bytesOf(ByteBuffer[] buffers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer b : buffers) {
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }
}
