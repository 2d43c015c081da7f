package org.salgate.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FramingTest {

    @Test
    void aLengthWithinTheMaximumIsAccepted() throws CodecException {
        assertEquals(81920, Framing.checkLength(81920, Framing.DEFAULT_MAX_FRAME_BYTES));
    }

    @Test
    void aLengthAboveTheMaximumIsRefusedWithBothNumbers() {
        CodecException e = assertThrows(Framing.FrameTooLargeException.class, () -> Framing.checkLength(2048, 1024));
        assertTrue(e.getMessage().contains("2048") && e.getMessage().contains("1024"), e.getMessage());
    }

    @Test
    void aZeroOrNegativeLengthIsRefused() {
        assertThrows(CodecException.class, () -> Framing.checkLength(0, 1024));
        assertThrows(CodecException.class, () -> Framing.checkLength(-5, 1024));
    }

    @Test
    void tlsHandshakeReadAsALengthIsNamedInTheRefusal() {
        CodecException e = assertThrows(Framing.FrameTooLargeException.class,
                () -> Framing.checkLength(0x16030100 | 0xB3, Framing.DEFAULT_MAX_FRAME_BYTES));
        assertTrue(e.getMessage().contains("TLS handshake"), e.getMessage());
    }
}
