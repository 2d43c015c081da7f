package org.salgate.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class LiveHeapTest {

    @Test
    void theTotalLineOfAClassHistogramGivesTheBytes() throws IOException {
        String histogram = """
                4242:
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:         10433         912344  [B (java.base@17.0.15)
                   2:          9601         230424  java.lang.String (java.base@17.0.15)
                Total         20034        1142768
                """;
        assertEquals(1_142_768, LiveHeap.total(histogram));
    }

    @Test
    void aHistogramWithoutATotalIsAClearError() {
        IOException e = assertThrows(IOException.class, () -> LiveHeap.total("4242:\nCommand not found\n"));
        assertTrue(e.getMessage().contains("no Total line"), e.getMessage());
    }

    @Test
    void theLiveHeapOfARunningJvmIsRead() throws Exception {
        byte[] held = new byte[8 * 1024 * 1024];
        long bytes = LiveHeap.bytes(ProcessHandle.current().pid());
        assertTrue(bytes > held.length, bytes + " live bytes while this test holds " + held.length);
    }
}
