package org.salgate.transport;

import org.salgate.wire.Codecs;
import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.WireSamples;

import org.salgate.model.Value;
import org.salgate.model.Call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FrameReaderTest {

    private static final ConnectionCodec SENDER = new ConnectionCodec(Codecs.defaultCodec());

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
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), Framing.DEFAULT_MAX_FRAME_BYTES);
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
    void holdsAWholeFrameExactlyWhenNextHasOneOrAnError() throws CodecException {
        List<Message> sent = WireSamples.everyMessage().subList(0, 2);
        byte[] bytes = framed(sent);
        int first = Framing.frameBytes(SENDER.encode(sent.get(0)));
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), Framing.DEFAULT_MAX_FRAME_BYTES);
        assertFalse(reader.holdsWholeFrame());
        reader.append(bytes, 0, 3);
        assertFalse(reader.holdsWholeFrame(), "part of the length field");
        reader.append(bytes, 3, first - 4);
        assertFalse(reader.holdsWholeFrame(), "one byte of the first frame missing");
        reader.append(bytes, first - 1, bytes.length - first + 1 - 1);
        assertTrue(reader.holdsWholeFrame(), "the first frame whole, the second not");
        assertEquals(sent.get(0), reader.next());
        assertFalse(reader.holdsWholeFrame(), "only the second frame, one byte short");
        reader.append(bytes, bytes.length - 1, 1);
        assertTrue(reader.holdsWholeFrame());
        assertEquals(sent.get(1), reader.next());
        assertFalse(reader.holdsWholeFrame());

        FrameReader oversize = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), 100);
        oversize.append(ByteBuffer.allocate(4).putInt(101).flip());
        assertTrue(oversize.holdsWholeFrame(), "a length out of bounds is for next() to report");
        assertThrows(CodecException.class, oversize::next);
    }

    @Test
    void aLargeAnnouncedLengthIsNotAllocatedBeforeItsBytesArrive() throws IOException, CodecException {
        int announced = 16 * 1024 * 1024;
        byte[] head = ByteBuffer.allocate(14).putInt(announced).put(new byte[10]).array();
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), announced);
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
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), 1024);
        reader.append(ByteBuffer.allocate(4).putInt(2048).flip());
        assertThrows(Framing.FrameTooLargeException.class, reader::next);
    }

    @Test
    void aZeroLengthFails() {
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), 1024);
        reader.append(new byte[4], 0, 4);
        assertThrows(CodecException.class, reader::next);
    }

    @Test
    void readsOfWholeFramesAllocateNoBufferPerRead() throws CodecException {
        byte[] frame = framed(List.of(new Request(1, new Call.Echo(Value.of(42L)))));
        FrameReader reader = helloRead();
        int reads = 1_000;
        for (int round = 0; round < 2; round++) { // the first round lets the JIT settle
            long before = allocatedBytes();
            for (int i = 0; i < reads; i++) {
                reader.append(ByteBuffer.wrap(frame));
                assertTrue(reader.next() instanceof Request);
                assertNull(reader.next());
            }
            long perRead = (allocatedBytes() - before) / reads;
            if (round == 1) {
                assertTrue(perRead < FrameReader.MIN_CAPACITY / 2,
                        perRead + " bytes allocated per read of one whole " + frame.length + "-byte frame");
            }
        }
    }

    @Test
    void readersSharingAThreadNeverSeeEachOthersBytes() throws CodecException {
        List<Message> sent = WireSamples.everyMessage();
        byte[] bytes = framed(sent);
        FrameReader a = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), Framing.DEFAULT_MAX_FRAME_BYTES);
        FrameReader b = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), Framing.DEFAULT_MAX_FRAME_BYTES);
        List<Message> gotA = new ArrayList<>();
        List<Message> gotB = new ArrayList<>();
        // a takes its bytes in reads of 37, and between two of its messages b reads a chunk of 53:
        // b's reads come while a still holds frames in the array its thread lent it, and a's
        // unfinished frames wait while b reads whole ones
        int bAt = 0;
        for (int cut = 0; cut < bytes.length; cut += 37) {
            a.append(bytes, cut, Math.min(37, bytes.length - cut));
            Message m;
            while ((m = a.next()) != null) {
                gotA.add(m);
                bAt = readChunk(b, bytes, bAt, 53, gotB);
            }
        }
        while (bAt < bytes.length) {
            bAt = readChunk(b, bytes, bAt, 53, gotB);
        }
        assertEquals(sent, gotA);
        assertEquals(sent, gotB);
        assertEquals(0, a.buffered());
        assertEquals(0, b.buffered());
    }

    /** Feeds {@code reader} up to {@code n} bytes from {@code at} and takes its whole frames; returns where it stopped. */
    private static int readChunk(FrameReader reader, byte[] bytes, int at, int n, List<Message> into) throws CodecException {
        if (at >= bytes.length) {
            return at;
        }
        int k = Math.min(n, bytes.length - at);
        reader.append(ByteBuffer.wrap(bytes, at, k));
        Message m;
        while ((m = reader.next()) != null) {
            into.add(m);
        }
        return at + k;
    }

    @Test
    void aMessageKeepsItsValueAfterItsReaderTakesTheNextRead() throws CodecException {
        byte[] payload = new byte[1000];
        java.util.Arrays.fill(payload, (byte) 7);
        Message first = new Request(1, new Call.Echo(Value.of(payload)));
        byte[] frame = framed(List.of(first));
        byte[] other = framed(List.of(new Request(2, new Call.Echo(Value.of(new byte[1000])))));
        FrameReader reader = helloRead();
        reader.append(ByteBuffer.wrap(frame));
        Message got = reader.next();
        assertNull(reader.next());
        reader.append(ByteBuffer.wrap(other)); // into the same lent array
        assertTrue(reader.next() instanceof Request);
        assertEquals(first, got);
    }

    /** A reader past its connection's hello. */
    private static FrameReader helloRead() throws CodecException {
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), Framing.DEFAULT_MAX_FRAME_BYTES);
        reader.append(ByteBuffer.wrap(framed(List.of(Hello.of("protobuf", "test")))));
        assertTrue(reader.next() instanceof Hello);
        return reader;
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void theLimitInForceIsReadForEachFrameSoAFrameAfterTheHelloInTheSameReadIsTakenOnceItIsRaised()
            throws CodecException {
        Message hello = Hello.of("protobuf", "pipelining");
        Message large = new Request(1, new Call.Echo(Value.of(new byte[200_000])));
        byte[] bytes = framed(List.of(hello, large));
        AtomicInteger limit = new AtomicInteger(64 * 1024);
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()),
                Framing.DEFAULT_MAX_FRAME_BYTES, limit::get, null);
        reader.append(bytes, 0, bytes.length);
        assertEquals(hello, reader.next());
        limit.set(Framing.DEFAULT_MAX_FRAME_BYTES); // the hello was accepted as it was delivered
        assertEquals(large, reader.next());
    }

    @Test
    void aFrameOverTheLimitBeforeTheHelloFailsOnItsLengthAndSaysToSendTheHelloFirst() throws IOException {
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()),
                Framing.DEFAULT_MAX_FRAME_BYTES, () -> 64 * 1024, null);
        reader.readFrom(new ByteArrayInputStream(ByteBuffer.allocate(4).putInt(1024 * 1024).array()));
        assertTrue(reader.holdsWholeFrame(), "a length over the limit in force is for next() to report");
        Framing.FrameTooLargeException e = assertThrows(Framing.FrameTooLargeException.class, reader::next);
        assertTrue(e.getMessage().contains("65536") && e.getMessage().contains("hello"), e.getMessage());
    }

    @Test
    void aLimitAboveTheReadersMaximumDoesNotRaiseIt() {
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()), 1024,
                () -> Integer.MAX_VALUE, null);
        reader.append(ByteBuffer.allocate(4).putInt(2048).flip());
        assertThrows(Framing.FrameTooLargeException.class, reader::next);
    }

    @Test
    void anUnfinishedFrameIsChargedToTheConnectionsAccountUntilItIsCut() throws CodecException {
        MemoryBudget budget = new MemoryBudget(1024 * 1024);
        MemoryBudget.Account account = budget.open("peer", () -> { });
        Message hello = Hello.of("protobuf", "unfinished");
        Message request = new Request(1, new Call.Echo(Value.of(new byte[100_000])));
        byte[] bytes = framed(List.of(hello, request));
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()),
                Framing.DEFAULT_MAX_FRAME_BYTES, account);
        reader.append(bytes, 0, 50_000);
        assertEquals(hello, reader.next());
        assertNull(reader.next());
        assertTrue(account.held() >= 50_000, "an unfinished frame of 50,000 bytes is charged " + account.held());
        reader.append(bytes, 50_000, bytes.length - 50_000);
        assertEquals(request, reader.next());
        assertNull(reader.next());
        assertEquals(0, budget.held(), "a frame that was cut is still charged");
    }

    @Test
    void releasingTheReaderGivesBackWhatItsUnfinishedFrameHeld() throws CodecException {
        MemoryBudget budget = new MemoryBudget(1024 * 1024);
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()),
                Framing.DEFAULT_MAX_FRAME_BYTES, budget.open("peer", () -> { }));
        reader.append(ByteBuffer.allocate(20_004).putInt(100_000).rewind());
        assertNull(reader.next());
        assertTrue(budget.held() > 0);
        reader.release();
        assertEquals(0, budget.held());
    }

    @Test
    void anUnfinishedFrameTheBudgetRefusesFailsTheReaderNamingTheBudget() {
        MemoryBudget budget = new MemoryBudget(64 * 1024);
        FrameReader reader = new FrameReader(new ConnectionCodec(Codecs.defaultCodec()),
                Framing.DEFAULT_MAX_FRAME_BYTES, budget.open("peer", () -> { }));
        reader.append(ByteBuffer.allocate(70_004).putInt(1_000_000).rewind());
        CodecException e = assertThrows(CodecException.class, reader::next);
        assertTrue(e.getMessage().contains(MemoryBudget.OPTION), e.getMessage());
        assertEquals(0, budget.held());
        assertEquals(0, reader.buffered(), "the refused frame's bytes were kept");
    }
}
