package org.salgate.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CodecsTest {

    @Test
    void protobufIsTheDefault() {
        assertEquals("protobuf", Codecs.defaultCodec().name());
    }

    @Test
    void anUnknownCodecNamesTheAvailableOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Codecs.byName("yaml"));
        assertTrue(e.getMessage().contains("unknown codec 'yaml'") && e.getMessage().contains("protobuf"),
                e.getMessage());
    }
}
