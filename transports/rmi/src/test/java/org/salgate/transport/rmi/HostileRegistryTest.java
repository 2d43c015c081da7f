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
import org.salgate.transport.testing.FakeRmiRegistry;
import org.salgate.transport.testing.RecordingClientHandler;

/**
 * An RMI client (a relay's, or the client program's) pointed at a hostile registry: an answer with
 * a class outside the allow-list, or one that declares a huge array in a few bytes, is refused
 * with a clear error before anything is built or allocated, and the client's heap does not grow.
 */
@Timeout(60)
class HostileRegistryTest {

    /** How much the heap may grow over a refused lookup: the reply is refused before it allocates anything. */
    private static final long HEAP_GROWTH_BOUND = 16L * 1024 * 1024;
    private static final int DECLARED_LONGS = 300_000_000; // 2.4 GB if allocated

    private static IOException connectTo(FakeRmiRegistry registry) {
        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder()
                .port(registry.port()).connectTimeout(Duration.ofSeconds(10)).build());
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
        assertTrue(e.getMessage().contains("allow-list"), e.getMessage());
    }

    @Test
    void aRegistryAnsweringWithAnUnexpectedClassIsRefused() throws Exception {
        Map<URL, String> gadget = new HashMap<>();
        gadget.put(new URL("http://example.invalid/"), "x");
        try (FakeRmiRegistry registry = new FakeRmiRegistry(FakeRmiRegistry.returning(gadget))) {
            IOException e = connectTo(registry);
            assertRefusedByTheFilter(e);
            assertEquals(1, registry.answered(), "the registry should have answered the lookup");
        }
    }

    @Test
    void aRegistryDeclaringAHugeArrayIsRefusedWithoutHeapGrowth() throws Exception {
        try (FakeRmiRegistry registry = new FakeRmiRegistry(FakeRmiRegistry.returningHugeArray(DECLARED_LONGS))) {
            long before = usedHeap();
            IOException e = connectTo(registry);
            long growth = usedHeap() - before;
            assertRefusedByTheFilter(e);
            assertEquals(1, registry.answered(), "the registry should have answered the lookup");
            assertTrue(growth < HEAP_GROWTH_BOUND, "the heap grew by " + growth / 1024 / 1024 + " MiB");
        }
    }
}
