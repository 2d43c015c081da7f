package org.salgate.plugin.serial;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Fuzzes what a port's reader does with any bytes: cut into lines of at most 64 bytes, each parsed
 * as NMEA, by a pattern and by a delimiter. Every line must give values or an
 * {@link LineParser.UnparsableLineException}; nothing else may escape or hang, and the splitter may
 * never hold more than a line. Without {@code JAZZER_FUZZ} it replays the inputs under
 * {@code LineFuzzTestInputs}.
 */
class LineFuzzTest {

    private static final int MAX_LINE = 64;
    /** Stateless parsers, made once: the fuzzer's time goes to lines, not to compiling the pattern. */
    private static final PatternParser PATTERN = new PatternParser("(?<a>[^,]*),(?<b>-?[0-9.]+)(?:,(?<c>.*))?",
            Map.of("a", new PatternParser.Field("a", FieldType.TEXT),
                    "b", new PatternParser.Field("b", FieldType.NUMBER),
                    "c", new PatternParser.Field("c", FieldType.INTEGER)));
    private static final DelimitedParser DELIMITED = new DelimitedParser(",", Map.of(
            "x", new DelimitedParser.Field(3, FieldType.INTEGER), "y", new DelimitedParser.Field(1, FieldType.NUMBER)));

    @FuzzTest(maxDuration = "30s")
    void anyBytesOnTheLine(FuzzedDataProvider data) {
        int readSize = data.consumeInt(1, 512);
        byte[] input = data.consumeRemainingAsBytes();
        Map<String, String> nmea = new LinkedHashMap<>();
        NmeaParser.FIELDS.keySet().forEach(f -> nmea.put(f, f));
        LineParser[] parsers = {new NmeaParser(nmea), PATTERN, DELIMITED};
        LineSplitter splitter = new LineSplitter(MAX_LINE);
        for (int offset = 0; offset < input.length; offset += readSize) {
            byte[] chunk = java.util.Arrays.copyOfRange(input, offset, Math.min(input.length, offset + readSize));
            splitter.feed(chunk, chunk.length, line -> {
                if (line.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 3 * MAX_LINE) {
                    throw new AssertionError("a line longer than the bound came out: " + line.length());
                }
                for (LineParser p : parsers) {
                    try {
                        p.parse(line);
                    } catch (LineParser.UnparsableLineException e) {
                        // counted and dropped by the protocol
                    }
                }
            }, () -> { });
            if (splitter.buffered() > MAX_LINE + 1) {
                throw new AssertionError("the splitter holds " + splitter.buffered() + " bytes");
            }
        }
    }
}
