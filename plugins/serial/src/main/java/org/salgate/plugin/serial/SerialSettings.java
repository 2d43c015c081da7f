package org.salgate.plugin.serial;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.salgate.plugin.spi.Settings;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * A serial protocol's settings, checked when it opens: the line's (from the endpoint) and the
 * protocol's parameters {@code format} ({@code nmea}, {@code pattern} or {@code delimited}),
 * {@code pattern}, {@code delimiter}, {@code max-line} (bytes, default 1024) and {@code stale-ms}
 * (default 10000).
 *
 * @param parity none, even or odd
 */
record SerialSettings(int baud, int dataBits, String parity, int stopBits, String format, int maxLine,
                      long staleMs) {

    /** A channel attribute: the channel counts lines ({@code lines}) or rejected lines ({@code rejected}). */
    static final String COUNT = "count";

    static SerialSettings of(ProtocolConfig config, Map<String, String> line) {
        String parity = line.getOrDefault("parity", "none").strip().toLowerCase(Locale.ROOT);
        if (!parity.equals("none") && !parity.equals("even") && !parity.equals("odd")) {
            throw new IllegalArgumentException("serial setting parity '" + parity + "' is none, even or odd");
        }
        String format = config.parameter("format", "nmea");
        if (!format.equals("nmea") && !format.equals("pattern") && !format.equals("delimited")) {
            throw new IllegalArgumentException("parameter format '" + format + "' is nmea, pattern or delimited");
        }
        return new SerialSettings(number("serial setting baud", line.get("baud"), 9600, 50, 4_000_000),
                number("serial setting data-bits", line.get("data-bits"), 8, 5, 8), parity,
                number("serial setting stop-bits", line.get("stop-bits"), 1, 1, 2), format,
                number("parameter max-line", config.parameters().get("max-line"), 1024, 16, 65_536),
                number("parameter stale-ms", config.parameters().get("stale-ms"), 10_000, 100, 86_400_000));
    }

    /**
     * The parser the format and the channels' attributes make.
     *
     * @throws IllegalArgumentException naming the parameter or channel that is wrong
     */
    LineParser parser(ProtocolConfig config) {
        Map<String, ChannelConfig> fields = new LinkedHashMap<>();
        for (ChannelConfig c : config.channels()) {
            String count = c.attributes().get(COUNT);
            if (count != null) {
                if (!count.equals("lines") && !count.equals("rejected")) {
                    throw new IllegalArgumentException("channel " + c.name() + ": count '" + count
                            + "' is lines or rejected");
                }
            } else {
                fields.put(c.name(), c);
            }
        }
        return switch (format) {
                case "nmea" -> {
                    Map<String, String> named = new LinkedHashMap<>();
                    fields.forEach((name, c) -> named.put(name, c.attributes().getOrDefault("field", name)));
                    yield new NmeaParser(named);
                }
                case "pattern" -> {
                    String pattern = config.parameter("pattern", null);
                    if (pattern == null) {
                        throw new IllegalArgumentException("format pattern needs parameter pattern, a regular"
                                + " expression with a named group (?<name>...) per channel");
                    }
                    Map<String, PatternParser.Field> named = new LinkedHashMap<>();
                    for (ChannelConfig c : fields.values()) {
                        named.put(c.name(), new PatternParser.Field(c.attributes().getOrDefault("group", c.name()),
                                type(c)));
                    }
                    yield new PatternParser(pattern, named);
                }
                default -> {
                    Map<String, DelimitedParser.Field> positions = new LinkedHashMap<>();
                    for (ChannelConfig c : fields.values()) {
                        String field = c.attributes().get("field");
                        if (field == null) {
                            throw new IllegalArgumentException("channel " + c.name() + " needs attribute field, its"
                                    + " position in the line (1 for the first)");
                        }
                        positions.put(c.name(), new DelimitedParser.Field(
                                number("channel " + c.name() + ": field", field, 0, 1, DelimitedParser.MAX_FIELDS),
                                type(c)));
                    }
                    yield new DelimitedParser(config.parameter("delimiter", ","), positions);
                }
            };
    }

    private static FieldType type(ChannelConfig c) {
        try {
            return FieldType.of(c.attributes().get("type"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("channel " + c.name() + ": " + e.getMessage());
        }
    }

    private static int number(String name, String text, int fallback, int min, int max) {
        return Settings.wholeNumber(name, text, fallback, min, max);
    }
}
