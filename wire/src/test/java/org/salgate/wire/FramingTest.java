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

    @Test
    void anHttpMethodReadAsALengthIsRefusedAsAnHttpRequest() {
        for (String method : new String[] {"GET ", "POST", "PUT ", "HEAD", "DELETE", "OPTIONS", "PATCH", "CONNECT",
                "PRI "}) {
            int length = java.nio.ByteBuffer.wrap(method.getBytes(java.nio.charset.StandardCharsets.US_ASCII)).getInt();
            Framing.HttpRequestException e = assertThrows(Framing.HttpRequestException.class,
                    () -> Framing.checkLength(length, Framing.DEFAULT_MAX_FRAME_BYTES), method);
            assertEquals(method.substring(0, 4).strip(), e.method().substring(0, Math.min(4, e.method().length())));
            assertTrue(e.getMessage().contains("use --transport http for HTTP"), e.getMessage());
        }
    }

    @Test
    void otherOversizeLengthsAreNotTakenForHttp() {
        int uppercaseNoMethod = java.nio.ByteBuffer.wrap("ABCD".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .getInt();
        CodecException e = assertThrows(Framing.FrameTooLargeException.class,
                () -> Framing.checkLength(uppercaseNoMethod, Framing.DEFAULT_MAX_FRAME_BYTES));
        assertTrue(!(e instanceof Framing.HttpRequestException) && !e.getMessage().contains("HTTP"), e.getMessage());
    }

    @Test
    void theHttpAnswerIsAMinimalBadRequestThatClosesTheConnection() {
        String answer = new String(Framing.httpBadRequest(), java.nio.charset.StandardCharsets.US_ASCII);
        String body = "this port speaks salgate's binary protocol; use --transport http for HTTP\n";
        assertEquals("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + body.length() + "\r\nConnection: close\r\n\r\n" + body, answer);
    }
}
