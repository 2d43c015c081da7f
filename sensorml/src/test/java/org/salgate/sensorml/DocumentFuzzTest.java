package org.salgate.sensorml;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes the readers of the documents clients send: SensorML (add sensor), CML and PCML (add
 * protocol). Any input must be read or fail with a {@link DocumentException}; nothing else may
 * escape, hang or exhaust memory. Without {@code JAZZER_FUZZ} each test replays its inputs under
 * {@code DocumentFuzzTestInputs/<test>}. Jazzer fuzzes one test per run: {@code .ci/run} fuzzes
 * {@link #anyDocument}, which reaches all three readers, for a bounded time with the {@code fuzz}
 * profile.
 */
class DocumentFuzzTest {

    /** The last byte picks the reader (FuzzedDataProvider takes single values from the end), the rest is the document. */
    @FuzzTest(maxDuration = "90s")
    void anyDocument(FuzzedDataProvider data) {
        int reader = Math.floorMod(data.consumeByte(), 3);
        byte[] document = data.consumeRemainingAsBytes();
        switch (reader) {
            case 0 -> sensorMl(document);
            case 1 -> cml(document);
            default -> pcml(document);
        }
    }

    private static String text(byte[] input) {
        return new String(input, StandardCharsets.UTF_8);
    }

    @FuzzTest(maxDuration = "25s")
    void sensorMl(byte[] input) {
        try {
            SensorMl.read(text(input));
        } catch (DocumentException e) {
            // the documented, clear refusal
        }
    }

    @FuzzTest(maxDuration = "25s")
    void cml(byte[] input) {
        try {
            Cml.readDocument(text(input));
        } catch (DocumentException e) {
            // the documented, clear refusal
        }
    }

    @FuzzTest(maxDuration = "25s")
    void pcml(byte[] input) {
        try {
            Pcml.read(text(input));
        } catch (DocumentException e) {
            // the documented, clear refusal
        }
    }
}
