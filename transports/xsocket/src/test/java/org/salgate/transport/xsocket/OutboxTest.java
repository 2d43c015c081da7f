package org.salgate.transport.xsocket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
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
        ByteBuffer first = outbox.next();
        assertArrayEquals(expected.toByteArray(), bytesOf(first));
        assertNull(outbox.next(), "everything left in the first buffer");
        assertTrue(outbox.isEmpty());
    }

    @Test
    void largeFrameIsHandedOnAsItIsBetweenMergedRuns() {
        Outbox outbox = new Outbox();
        ByteBuffer large = ByteBuffer.allocate(80 * 1024);
        outbox.add(ByteBuffer.wrap(new byte[] {1}));
        outbox.add(ByteBuffer.wrap(new byte[] {2}));
        outbox.add(large);
        outbox.add(ByteBuffer.wrap(new byte[] {3}));
        outbox.add(ByteBuffer.wrap(new byte[] {4}));
        assertArrayEquals(new byte[] {1, 2}, bytesOf(outbox.next()));
        assertSame(large, outbox.next(), "an 80 KB frame is handed on as it is, not copied");
        assertArrayEquals(new byte[] {3, 4}, bytesOf(outbox.next()));
        assertNull(outbox.next());
    }

    @Test
    void mergedBuffersStayBelowTheirLimit() {
        Outbox outbox = new Outbox();
        int frames = 3 * Outbox.MERGED_MAX_BYTES / 1000;
        for (int i = 0; i < frames; i++) {
            outbox.add(ByteBuffer.allocate(1000));
        }
        List<ByteBuffer> taken = new ArrayList<>();
        for (ByteBuffer b = outbox.next(); b != null; b = outbox.next()) {
            taken.add(b);
        }
        long total = 0;
        for (ByteBuffer b : taken) {
            assertTrue(b.remaining() <= Outbox.MERGED_MAX_BYTES, b.remaining() + " bytes in one buffer");
            total += b.remaining();
        }
        assertEquals(frames * 1000L, total);
        assertTrue(taken.size() <= 4, taken.size() + " buffers");
    }

    @Test
    void bytesStayCountedUntilHandedOver() {
        Outbox outbox = new Outbox();
        outbox.add(ByteBuffer.allocate(10));
        outbox.add(ByteBuffer.allocate(20_000));
        assertEquals(20_010, outbox.bytes());
        ByteBuffer small = outbox.next();
        assertEquals(10, small.remaining());
        assertEquals(20_010, outbox.bytes(), "taken out but not yet held by xSocket");
        outbox.handedOver(small.remaining());
        assertEquals(20_000, outbox.bytes());
        outbox.handedOver(outbox.next().remaining());
        assertEquals(0, outbox.bytes());
        assertTrue(outbox.isEmpty());
    }

    @Test
    void takeAllJoinsEverythingIntoOneBufferInOrder() {
        Outbox outbox = new Outbox();
        byte[] large = new byte[80 * 1024];
        large[0] = 9;
        large[large.length - 1] = 8;
        outbox.add(ByteBuffer.wrap(new byte[] {1, 2}));
        outbox.add(ByteBuffer.wrap(large));
        outbox.add(ByteBuffer.wrap(new byte[] {3}));
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes(new byte[] {1, 2});
        expected.writeBytes(large);
        expected.writeBytes(new byte[] {3});
        assertArrayEquals(expected.toByteArray(), bytesOf(outbox.takeAll()));
        assertTrue(outbox.isEmpty());
        assertNull(outbox.takeAll());
    }

    private static byte[] bytesOf(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
