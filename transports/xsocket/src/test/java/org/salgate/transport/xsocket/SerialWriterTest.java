package org.salgate.transport.xsocket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.IWriteCompletionHandler;

/**
 * The writer keeps at most one buffer in xSocket's hands: xSocket 2.8.15 can strand the rest of a
 * partly written write made of several buffers (see {@link SerialWriter}).
 */
class SerialWriterTest {

    @Test
    void handsXsocketOneBufferAndTheNextOnlyOnceItIsWritten() throws IOException {
        FakeConnection fake = new FakeConnection();
        AtomicInteger afterWrites = new AtomicInteger();
        SerialWriter writer = new SerialWriter(fake.connection, afterWrites::incrementAndGet, e -> { });
        ByteArrayOutputStream expected = new ByteArrayOutputStream();

        for (int i = 0; i < 100; i++) {
            byte[] frame = new byte[i % 10 == 9 ? 20_000 : 20];
            frame[0] = (byte) i;
            expected.writeBytes(frame);
            assertTrue(writer.send(ByteBuffer.wrap(frame)));
            assertEquals(1, fake.inHand.size(), "xSocket holds more than one buffer after frame " + i);
        }
        assertEquals(expected.size(), writer.pendingBytes(), "every byte is counted while it waits");

        while (!fake.inHand.isEmpty()) {
            fake.completeOne();
            assertTrue(fake.inHand.size() <= 1, "a completion handed xSocket more than one buffer");
        }
        assertArrayEquals(expected.toByteArray(), fake.written.toByteArray(), "frames left out of order");
        assertEquals(0, writer.pendingBytes());
        assertEquals(fake.completions, afterWrites.get(), "afterWrite runs once per completed write");
        assertTrue(fake.completions < 100, "small frames sent meanwhile are merged, not written one by one");
    }

    @Test
    void aLoneFrameGoesOutAtOnceAsItIs() throws IOException {
        FakeConnection fake = new FakeConnection();
        SerialWriter writer = new SerialWriter(fake.connection, () -> { }, e -> { });
        ByteBuffer frame = ByteBuffer.wrap(new byte[] {1, 2, 3});
        writer.send(frame);
        assertSame(frame, fake.inHand.peek());
    }

    @Test
    void closeHandsWhatWaitsOverAsOneBufferThenCloses() throws IOException {
        FakeConnection fake = new FakeConnection();
        SerialWriter writer = new SerialWriter(fake.connection, () -> { }, e -> { });
        writer.send(ByteBuffer.wrap(new byte[] {1}));
        writer.send(ByteBuffer.wrap(new byte[] {2}));
        writer.send(ByteBuffer.wrap(new byte[40_000]));
        writer.send(ByteBuffer.wrap(new byte[] {3}));
        writer.close();
        assertEquals(2, fake.inHand.size(), "the one on its way and one buffer with everything that waited");
        assertFalse(fake.open);
        assertFalse(writer.send(ByteBuffer.wrap(new byte[] {4})), "a closed writer drops what it is sent");
    }

    @Test
    void aFailedWriteIsReportedAndWhatWaitedIsDropped() throws IOException {
        FakeConnection fake = new FakeConnection();
        List<IOException> failures = new ArrayList<>();
        SerialWriter writer = new SerialWriter(fake.connection, () -> { }, failures::add);
        writer.send(ByteBuffer.wrap(new byte[] {1}));
        writer.send(ByteBuffer.wrap(new byte[] {2}));
        IOException broken = new IOException("broken pipe");
        fake.failOne(broken);
        assertEquals(List.of(broken), failures);
        assertEquals(0, writer.pendingBytes());
    }

    /** An xSocket connection that records writes and completes them when the test says so. */
    private static final class FakeConnection {
        final ArrayDeque<ByteBuffer> inHand = new ArrayDeque<>();
        final ArrayDeque<IWriteCompletionHandler> handlers = new ArrayDeque<>();
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        int completions;
        boolean open = true;
        final INonBlockingConnection connection = (INonBlockingConnection) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {INonBlockingConnection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "isOpen":
                            return open;
                        case "close":
                            open = false;
                            return null;
                        case "getPendingWriteDataSize":
                            return inHand.stream().mapToInt(ByteBuffer::remaining).sum();
                        case "write":
                            if (args.length == 2 && args[0] instanceof ByteBuffer b
                                    && args[1] instanceof IWriteCompletionHandler h) {
                                inHand.add(b);
                                handlers.add(h);
                                return b.remaining();
                            }
                            if (args.length == 1 && args[0] instanceof ByteBuffer b) {
                                inHand.add(b);
                                handlers.add(NO_HANDLER);
                                return b.remaining();
                            }
                            throw new UnsupportedOperationException("write" + List.of(args));
                        case "toString":
                            return "FakeConnection";
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });

        void completeOne() throws IOException {
            ByteBuffer b = inHand.peek();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            written.writeBytes(bytes);
            inHand.remove();
            completions++;
            handlers.remove().onWritten(bytes.length);
        }

        void failOne(IOException e) {
            inHand.remove();
            handlers.remove().onException(e);
        }

        private static final IWriteCompletionHandler NO_HANDLER = new IWriteCompletionHandler() {
            @Override
            public void onWritten(int bytes) {}

            @Override
            public void onException(IOException e) {}
        };
    }
}
