package org.salgate.bench.matrix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class EnvelopeTest {

    @Test
    void wrappedBodyParsesBackWithItsFormatName() {
        byte[] bytes = Envelope.wrap("json+gzip", new byte[] {1, 2, 3});
        assertEquals(1 + 9 + 3, bytes.length);
        assertEquals(9, bytes[0]);
        Envelope e = Envelope.parse(bytes);
        assertEquals("json+gzip", e.format());
        assertArrayEquals(new byte[] {1, 2, 3}, e.body());
    }

    @Test
    void emptyOrTruncatedEnvelopesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Envelope.parse(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> Envelope.parse(new byte[] {0, 1}));
        assertThrows(IllegalArgumentException.class, () -> Envelope.parse(new byte[] {5, 'a', 'b'}));
    }

    @Test
    void namesThatOneByteCannotCarryAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Envelope.wrap("", new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> Envelope.wrap("x".repeat(256), new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> Envelope.wrap("jsön", new byte[0]));
    }
}
