package org.salgate.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TlsWarmUpTest {

    @Test
    void theInMemoryHandshakeFinishesOnBothSidesOnTls13() throws Exception {
        assertEquals("TLSv1.3", TlsWarmUp.handshakeInMemory());
    }

    @Test
    void theWarmUpRunsItsHandshakesToTheEnd() throws Exception {
        assertEquals("TLSv1.3", TlsWarmUp.warmUp());
    }
}
