package org.salgate.wire;

import org.salgate.model.Value;
import org.salgate.model.Reading;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedMessageTest {

    private static final StreamData DATA = new StreamData(3, Reading.ok("DUMMY_0", 1_700_000_000_000_000L, 7,
            Value.of(21.5)));

    /** A second codec: protobuf under another name, a fresh array per encoding. */
    private static final Codec OTHER = new Codec() {
        @Override
        public String name() {
            return "other";
        }

        @Override
        public byte[] encode(Message message) {
            return ProtobufCodec.INSTANCE.encode(message);
        }

        @Override
        public Message decode(byte[] bytes, int offset, int length) throws CodecException {
            return ProtobufCodec.INSTANCE.decode(bytes, offset, length);
        }
    };

    @Test
    void connectionsWithOneCodecSendTheSameBytesEncodedOnce() throws CodecException {
        AtomicInteger encodings = new AtomicInteger();
        SharedMessage shared = new SharedMessage(DATA, encodings::incrementAndGet);
        Codec codec = Codecs.defaultCodec();
        ConnectionCodec a = new ConnectionCodec(codec);
        ConnectionCodec b = new ConnectionCodec(codec);
        byte[] first = a.encode(shared);
        assertSame(first, b.encode(shared));
        assertEquals(1, encodings.get());
        assertArrayEquals(codec.encode(DATA), first);
        assertEquals(first.length, b.bytesEncoded(), "each connection counts what it sends");
    }

    @Test
    void eachCodecEncodesItOnce() {
        AtomicInteger encodings = new AtomicInteger();
        SharedMessage shared = new SharedMessage(DATA, encodings::incrementAndGet);
        byte[] other = new ConnectionCodec(OTHER).encode(shared);
        byte[] protobuf = new ConnectionCodec(Codecs.defaultCodec()).encode(shared);
        assertNotSame(other, protobuf);
        assertSame(protobuf, new ConnectionCodec(Codecs.defaultCodec()).encode(shared));
        assertSame(other, new ConnectionCodec(OTHER).encode(shared));
        assertEquals(2, encodings.get());
    }

    @Test
    void manyThreadsSendingItAtOnceEncodeItOnce() throws InterruptedException {
        AtomicInteger encodings = new AtomicInteger();
        SharedMessage shared = new SharedMessage(DATA, encodings::incrementAndGet);
        Codec codec = Codecs.defaultCodec();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        byte[][] got = new byte[8][];
        for (int i = 0; i < got.length; i++) {
            int n = i;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                got[n] = new ConnectionCodec(codec).encode(shared);
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(1, encodings.get());
        for (byte[] bytes : got) {
            assertSame(got[0], bytes);
        }
    }

    @Test
    void aHandshakeIsNeverShared() {
        assertThrows(IllegalArgumentException.class, () -> new SharedMessage(Hello.of("protobuf", "t"), () -> { }));
    }
}
