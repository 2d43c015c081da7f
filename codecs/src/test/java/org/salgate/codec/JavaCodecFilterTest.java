package org.salgate.codec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.Codecs;

class JavaCodecFilterTest {

    /** Stands for a gadget: a serializable class whose readObject has a side effect. */
    static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;
        static final AtomicBoolean RAN = new AtomicBoolean();
        String command = "rm -rf /";

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            RAN.set(true);
        }
    }

    private static byte[] serialize(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    private final Codec java = Codecs.byName("java");

    @Test
    void aHashMapWithPayloadIsRejected() throws IOException {
        Map<String, Object> map = new HashMap<>();
        map.put("t", "request");
        map.put("payload", new byte[] {1, 2, 3});
        CodecException e = assertThrows(CodecException.class, () -> java.decode(serialize(map)));
        assertTrue(e.getMessage().contains("filter"), e.getMessage());
    }

    @Test
    void aGadgetClassIsRejectedBeforeItRuns() throws IOException {
        byte[] bytes = serialize(new Gadget());
        CodecException e = assertThrows(CodecException.class, () -> java.decode(bytes));
        assertTrue(e.getMessage().contains("filter"), e.getMessage());
        assertFalse(Gadget.RAN.get(), "the gadget's readObject ran");
    }

    @Test
    void anAllowedClassWithTheWrongRootIsRejected() throws IOException {
        CodecException e = assertThrows(CodecException.class, () -> java.decode(serialize("just a string")));
        assertTrue(e.getMessage().contains("not a message tree"), e.getMessage());
    }

    @Test
    void nestedArraysOfAnotherTypeAreRejected() throws IOException {
        Object[] nested = new Object[1];
        Object[] inner = nested;
        for (int i = 0; i < 200; i++) {
            Object[] next = new Object[1];
            inner[0] = next;
            inner = next;
        }
        assertThrows(CodecException.class, () -> java.decode(serialize(nested)));
    }
}
