package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransportsTest {

    @Test
    void withNoTransportOnTheClassPathTheErrorSaysWhichModuleToAdd() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Transports.byName("netty"));
        assertTrue(e.getMessage().contains("salgate-transport-netty"), e.getMessage());
    }

    @Test
    void aProviderThatCannotBeLoadedIsSkipped(@TempDir Path dir) throws IOException {
        Path services = dir.resolve("META-INF/services");
        Files.createDirectories(services);
        Files.writeString(services.resolve(TransportProvider.class.getName()), "org.example.Missing\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                TransportsTest.class.getClassLoader())) {
            assertEquals(0, Transports.available(loader).size());
        }
    }

    @Test
    void optionsRefuseWaterMarksTheWrongWayRound() {
        assertThrows(IllegalArgumentException.class,
                () -> ServerOptions.builder().writeWaterMarks(2048, 1024).build());
    }
}
