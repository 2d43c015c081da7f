package org.salgate.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameReaderTest {

    private static final ConnectionCodec SENDER = new ConnectionCodec(ProtobufCodec.INSTANCE);

    private static byte[] framed(List<Message> messages) {
        List<byte[]> bodies = messages.stream().map(SENDER::encode).toList();
        int size = bodies.stream().mapToInt(Framing::frameBytes).sum();
        ByteBuffer buffer = ByteBuffer.allocate(size);
        bodies.forEach(b -> Framing.put(buffer, b));
        return buffer.array();
    }

    @Test
    void framesFedOneByteAtATimeComeOutWholeAndInOrder() throws CodecException {
        List<Message> sent = WireSamples.everyMessage();
        byte[] bytes = framed(sent);
        FrameReader reader = new FrameReader(new ConnectionCodec(ProtobufCodec.INSTANCE), Framing.DEFAULT_MAX_FRAME_BYTES);
        List<Message> received = new ArrayList<>();
        for (int i = 0; i < bytes.length; i++) {
            reader.append(bytes, i, 1);
            Message m;
            while ((m = reader.next()) != null) {
                received.add(m);
            }
        }
        assertEquals(sent, received);
        assertEquals(0, reader.buffered());
    }

    @Test
    void aLargeAnnouncedLengthIsNotAllocatedBeforeItsBytesArrive() throws IOException, CodecException {
        int announced = 16 * 1024 * 1024;
        byte[] head = ByteBuffer.allocate(14).putInt(announced).put(new byte[10]).array();
        FrameReader reader = new FrameReader(new ConnectionCodec(ProtobufCodec.INSTANCE), announced);
        long before = allocatedBytes();
        InputStream in = new ByteArrayInputStream(head);
        while (reader.readFrom(in) > 0) {
            assertNull(reader.next());
        }
        long allocated = allocatedBytes() - before;
        assertEquals(14, reader.buffered());
        assertTrue(allocated < 1024 * 1024, allocated + " bytes allocated for a frame of which 10 bytes arrived");
    }

    @Test
    void anOversizeLengthFailsAsSoonAsItsFourBytesArrive() {
        FrameReader reader = new FrameReader(new ConnectionCodec(ProtobufCodec.INSTANCE), 1024);
        reader.append(ByteBuffer.allocate(4).putInt(2048).flip());
        assertThrows(Framing.FrameTooLargeException.class, reader::next);
    }

    @Test
    void aZeroLengthFails() {
        FrameReader reader = new FrameReader(new ConnectionCodec(ProtobufCodec.INSTANCE), 1024);
        reader.append(new byte[4], 0, 4);
        assertThrows(CodecException.class, reader::next);
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }
}
