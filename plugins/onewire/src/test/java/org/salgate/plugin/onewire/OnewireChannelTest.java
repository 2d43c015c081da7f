package org.salgate.plugin.onewire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;

class OnewireChannelTest {

    private static Value read(String path, String owserverText, String... attributes) {
        String[] all = new String[attributes.length + 2];
        all[0] = "path";
        all[1] = path;
        System.arraycopy(attributes, 0, all, 2, attributes.length);
        return OnewireChannel.of(Channels.read("c", all), false).kind()
                .value(owserverText.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aTemperatureOwserverPrintsWholeIsStillADecimalNumber() {
        assertEquals(Value.of(25.0), read("/28.4AEC29CDBAAB/temperature", "          25"));
        assertEquals(Value.of(21.5625), read("/28.4AEC29CDBAAB/temperature12", "     21.5625"));
        assertEquals(Value.of(5.0), read("/26.F2FBE3467CC2/VAD", "           5"));
        assertEquals(Value.of(40.0), read("/26.F2FBE3467CC2/HIH4000/humidity", "          40"));
    }

    @Test
    void aFamilyCodeIsTextWhetherItLooksLikeANumberOrNot() {
        assertEquals(Value.of("28"), read("/28.4AEC29CDBAAB/family", "28"));
        assertEquals(Value.of("1D"), read("/1D.54F81BE8E78D/family", "1D"));
        assertEquals(Value.of("DS18B20"), read("/28.4AEC29CDBAAB/type", "DS18B20"));
    }

    @Test
    void aCounterIsAWholeNumberAndAnUnknownPropertyIsReadByItsText() {
        assertEquals(Value.of(1234L), read("/1D.54F81BE8E78D/counter.A", "        1234"));
        assertEquals(Value.of(7L), read("/12.0000000000AA/PIO.A", "7"));
        assertEquals(Value.of(12L), read("/12.0000000000AA/other", "  12"));
        assertEquals(Value.of(-3.25), read("/12.0000000000AA/other", "  -3.25"));
        assertEquals(Value.of("on"), read("/12.0000000000AA/other", "on"));
    }

    @Test
    void theChannelsTypeAttributeOverridesThePropertysKind() {
        assertEquals(Value.of("25"), read("/28.4AEC29CDBAAB/temperature", "25", "type", "text"));
        assertEquals(Value.of(3.0), read("/12.0000000000AA/other", "3", "type", "decimal"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> read("/12.0000000000AA/other", "3", "type", "float"));
        assertTrue(e.getMessage().contains("attribute type is decimal, whole or text, not 'float'"), e.getMessage());
    }

    @Test
    void textWhereANumberIsDueIsRefusedNamingWhatItIs() {
        NumberFormatException e = assertThrows(NumberFormatException.class,
                () -> read("/28.4AEC29CDBAAB/temperature", "  85 C"));
        assertEquals("'85 C' is not a decimal number", e.getMessage());
    }
}
