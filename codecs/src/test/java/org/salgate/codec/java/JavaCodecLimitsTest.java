package org.salgate.codec.java;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.model.Call;
import org.salgate.wire.CodecException;
import org.salgate.wire.Request;
import org.salgate.model.Value;

class JavaCodecLimitsTest {

    private final JavaCodec codec = new JavaCodec();

    static byte[] serialize(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    /** 25 levels, each an array referring 4 times to the same child: 4^25 nodes once expanded. */
    static byte[] dagBomb() throws IOException {
        SerialNode level = new SerialNode(SerialNode.TEXT, "x", 0, 0, null, null, null);
        for (int i = 0; i < 25; i++) {
            level = new SerialNode(SerialNode.ARRAY, null, 0, 0, null, null,
                    new SerialNode[] {level, level, level, level});
        }
        return serialize(new SerialNode(SerialNode.OBJECT, null, 0, 0, null, new String[] {"t", "call"},
                new SerialNode[] {new SerialNode(SerialNode.TEXT, "request", 0, 0, null, null, null), level}));
    }

    @Test
    @Timeout(5)
    void aStreamReferringToTheSameNodeOverAndOverIsRefusedQuickly() throws IOException {
        byte[] bomb = dagBomb();
        assertTrue(bomb.length < 4096, "the bomb is " + bomb.length + " bytes");
        CodecException e = assertThrows(CodecException.class, () -> codec.decode(bomb, 0, bomb.length));
        assertTrue(e.getMessage().contains("expands to more than 65536 nodes, characters and bytes"), e.getMessage());
    }

    @Test
    void anArrayLongerThanTheStreamIsRefusedBeforeItIsAllocated() throws IOException {
        byte[] stream = serialize(new SerialNode(SerialNode.BINARY, null, 0, 0, new byte[1000], null, null));
        int at = indexOfLength(stream, 1000);
        ByteBuffer.wrap(stream).putInt(at, 64 * 1024 * 1024);
        CodecException e = assertThrows(CodecException.class, () -> codec.decode(stream, 0, stream.length));
        assertTrue(e.getMessage().contains("refused by the deserialization filter"), e.getMessage());
    }

    @Test
    void largeMessagesWithinTheirOwnLengthStillDecode() throws CodecException {
        Request big = new Request(1, new Call.Echo(Value.of(new byte[2 * 1024 * 1024])));
        byte[] bytes = codec.encode(big);
        assertEquals(big, codec.decode(bytes, 0, bytes.length));
    }

    private static int indexOfLength(byte[] stream, int length) {
        for (int i = stream.length - length - 4; i >= 0; i--) {
            if (ByteBuffer.wrap(stream).getInt(i) == length) {
                return i;
            }
        }
        throw new AssertionError("no array length " + length + " in the stream");
    }
}
