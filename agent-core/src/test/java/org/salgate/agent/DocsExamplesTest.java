package org.salgate.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.SensorMl;

/** The example documents under docs/examples, which the README points users at, stay valid. */
class DocsExamplesTest {

    private static final Path EXAMPLES = Path.of("..", "docs", "examples");

    @Test
    void everyExamplePlatformConfigurationIsValidPcml() throws Exception {
        List<Path> files = files(".pcml");
        assertFalse(files.isEmpty(), "no .pcml examples found in " + EXAMPLES.toAbsolutePath());
        for (Path file : files) {
            PlatformConfig config = Pcml.read(Files.readString(file));
            assertFalse(config.protocols().isEmpty(), file + " configures no protocol");
        }
    }

    @Test
    void theExampleSensorDescriptionIsValidSensorMl() throws Exception {
        List<Path> files = files(".sensorml.xml");
        assertFalse(files.isEmpty(), "no .sensorml.xml examples found in " + EXAMPLES.toAbsolutePath());
        for (Path file : files) {
            assertEquals("DUMMY_EXTRA", SensorMl.read(Files.readString(file)).id(), file.toString());
        }
    }

    private static List<Path> files(String suffix) throws IOException {
        try (Stream<Path> all = Files.list(EXAMPLES)) {
            return all.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }
}
