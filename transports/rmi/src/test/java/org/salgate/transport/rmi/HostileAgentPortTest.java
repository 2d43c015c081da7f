package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.testing.FakeRmiAgentPort;
import org.salgate.transport.testing.RecordingClientHandler;

/**
 * An RMI client (a relay's, or the client program's) pointed at a hostile port: an answer to its
 * bootstrap with a class outside the allow-list, one that declares a huge array in a few bytes, or
 * one larger than a stub, is refused with a clear error before anything is built or allocated, and
 * the client's heap does not grow.
 */
@Timeout(60)
class HostileAgentPortTest {

    /** How much the heap may grow over a refused bootstrap: the answer is refused before it allocates anything. */
    private static final long HEAP_GROWTH_BOUND = 16L * 1024 * 1024;
    private static final int DECLARED_LONGS = 300_000_000; // 2.4 GB if allocated

    private static IOException connectTo(FakeRmiAgentPort port) {
        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder()
                .port(port.port()).connectTimeout(Duration.ofSeconds(10)).build());
        try {
            return assertThrows(IOException.class, () -> client.connect(new RecordingClientHandler()));
        } finally {
            client.close();
        }
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    private static void assertRefusedByTheFilter(IOException e) {
        assertTrue(e.getMessage().contains("outside the deserialization allow-list"), e.getMessage());
    }

    @Test
    void anAnswerWithAnUnexpectedClassIsRefused() throws Exception {
        Map<URL, String> gadget = new HashMap<>();
        gadget.put(new URL("http://example.invalid/"), "x");
        try (FakeRmiAgentPort port = new FakeRmiAgentPort(FakeRmiAgentPort.returning(gadget))) {
            IOException e = connectTo(port);
            assertRefusedByTheFilter(e);
            assertEquals(1, port.answered(), "the port should have answered the bootstrap");
        }
    }

    @Test
    void anAnswerDeclaringAHugeArrayIsRefusedWithoutHeapGrowth() throws Exception {
        try (FakeRmiAgentPort port = new FakeRmiAgentPort(FakeRmiAgentPort.returningHugeArray(DECLARED_LONGS))) {
            long before = usedHeap();
            IOException e = connectTo(port);
            long growth = usedHeap() - before;
            assertRefusedByTheFilter(e);
            assertEquals(1, port.answered(), "the port should have answered the bootstrap");
            assertTrue(growth < HEAP_GROWTH_BOUND, "the heap grew by " + growth / 1024 / 1024 + " MiB");
        }
    }

    @Test
    void anAnswerLargerThanAStubIsRefused() throws Exception {
        try (FakeRmiAgentPort port = new FakeRmiAgentPort(new byte[RmiTransportClient.MAX_STUB_BYTES + 1])) {
            IOException e = connectTo(port);
            assertTrue(e.getMessage().contains("sent more than the " + RmiTransportClient.MAX_STUB_BYTES + " bytes"),
                    e.getMessage());
        }
    }
}
