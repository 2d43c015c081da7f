package org.salgate.plugin.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;

/** The pattern and delimited parsers, and the line splitter. */
class LineParsersTest {

    @Test
    void aPatternsNamedGroupsGiveTheChannelsInTheirTypes() throws Exception {
        PatternParser p = new PatternParser("T=(?<temp>-?[0-9.]+)C H=(?<hum>[0-9]+)% ID=(?<id>\\w+)",
                Map.of("temperature", new PatternParser.Field("temp", FieldType.NUMBER),
                        "humidity", new PatternParser.Field("hum", FieldType.INTEGER),
                        "station", new PatternParser.Field("id", FieldType.TEXT)));
        var v = p.parse("T=-3.5C H=81% ID=north");
        assertEquals(Value.of(-3.5), v.get("temperature").value());
        assertEquals(Value.of(81L), v.get("humidity").value());
        assertEquals(Value.of("north"), v.get("station").value());
        var e = assertThrows(LineParser.UnparsableLineException.class, () -> p.parse("T=?C"));
        assertTrue(e.getMessage().contains("does not match"), e.getMessage());
    }

    @Test
    void aPatternThatDoesNotCompileOrLacksAGroupIsRefusedNamingIt() {
        var bad = assertThrows(IllegalArgumentException.class, () -> new PatternParser("(?<a>[0-9", Map.of()));
        assertTrue(bad.getMessage().contains("not a regular expression"), bad.getMessage());
        var missing = assertThrows(IllegalArgumentException.class, () -> new PatternParser("(?<a>[0-9]+)",
                Map.of("w", new PatternParser.Field("weight", FieldType.NUMBER))));
        assertTrue(missing.getMessage().contains("channel w") && missing.getMessage().contains("'weight'")
                && missing.getMessage().contains("its groups are a"), missing.getMessage());
    }

    @Test
    void delimitedFieldsByPositionAndWhitespace() throws Exception {
        DelimitedParser semi = new DelimitedParser(";", Map.of("pm25", new DelimitedParser.Field(2, FieldType.NUMBER)));
        assertEquals(Value.of(12.5), semi.parse("a;12.5;x").get("pm25").value());
        var short_ = assertThrows(LineParser.UnparsableLineException.class, () -> semi.parse("a"));
        assertTrue(short_.getMessage().contains("1 fields, 2 wanted"), short_.getMessage());
        DelimitedParser ws = new DelimitedParser("whitespace",
                Map.of("g", new DelimitedParser.Field(2, FieldType.NUMBER)));
        assertEquals(Value.of(105.2), ws.parse("  ST,GS   105.2  g").get("g").value());
        var nan = assertThrows(LineParser.UnparsableLineException.class, () -> semi.parse("a;b"));
        assertTrue(nan.getMessage().contains("channel pm25") && nan.getMessage().contains("not a number"));
    }

    @Test
    void theSplitterCutsLinesDropsTheCarriageReturnAndCountsOverlongOnesWithoutHoldingThem() {
        LineSplitter s = new LineSplitter(8);
        List<String> lines = new ArrayList<>();
        int[] overlong = {0};
        byte[] in = "ab\r\n12345678\r\n123456789\nxyz".getBytes();
        s.feed(in, in.length, lines::add, () -> overlong[0]++);
        assertEquals(List.of("ab", "12345678"), lines);
        assertEquals(1, overlong[0]);
        assertEquals(3, s.buffered());
        byte[] more = "0123456789012345678901234567890123456789\nok\n".getBytes();
        s.feed(more, more.length, lines::add, () -> overlong[0]++);
        assertEquals(List.of("ab", "12345678", "ok"), lines);
        assertEquals(2, overlong[0]);
    }
}
