package org.salgate.bench.codec.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class CodecHarnessTest {

    private static final HarnessConfig TINY = new HarnessConfig(Duration.ofMillis(20), Duration.ofMillis(10), 3);

    private static final class Utf8 implements Serializer {
        private final boolean corrupt;

        Utf8(boolean corrupt) {
            this.corrupt = corrupt;
        }

        @Override
        public byte[] encode(Object value) {
            return ((String) value).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Object decode(byte[] bytes) {
            String s = new String(bytes, StandardCharsets.UTF_8);
            return corrupt ? s + "!" : s;
        }
    }

    @Test
    void faithfulCodecIsMeasuredAndPasses() {
        String value = "a reading of 21.5 degrees ".repeat(20);
        CaseResult r = new CodecHarness(TINY).run("utf8", "text", new Utf8(false), value);
        assertNull(r.error());
        assertEquals(value.length(), r.bytes());
        assertTrue(r.gzipBytes() > 0 && r.gzipBytes() < r.bytes(), "repetitive text compresses: " + r.gzipBytes());
        assertTrue(r.encodeNs().median() > 0 && r.encodeNs().min() <= r.encodeNs().max());
        assertTrue(r.decodeNs().median() > 0);
    }

    @Test
    void roundTripMismatchMarksTheCaseFailed() {
        CaseResult r = new CodecHarness(TINY).run("lossy", "text", new Utf8(true), "value");
        assertFalse(r.ok());
        assertTrue(r.error().contains("not equal"), r.error());
        assertEquals(5, r.bytes());
    }

    @Test
    void codecThatThrowsFailsTheCaseWithItsMessage() {
        Serializer broken = new Serializer() {
            @Override
            public byte[] encode(Object value) {
                throw new IllegalStateException("cannot write this type");
            }

            @Override
            public Object decode(byte[] bytes) {
                return null;
            }
        };
        CaseResult r = new CodecHarness(TINY).run("broken", "text", broken, "value");
        assertNotNull(r.error());
        assertTrue(r.error().contains("cannot write this type"), r.error());
        assertEquals(-1, r.bytes());
    }

    @Test
    void spreadGivesMedianMinAndMax() {
        Spread s = Spread.of(new double[] {5, 1, 3, 9});
        assertEquals(4, s.median());
        assertEquals(1, s.min());
        assertEquals(9, s.max());
    }
}
