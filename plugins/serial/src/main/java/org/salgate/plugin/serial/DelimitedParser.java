package org.salgate.plugin.serial;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.salgate.plugin.spi.ChannelValue;

/**
 * Lines of fields between delimiters, such as {@code 21.4;55;1013.2}: each channel names its
 * field's position in its {@code field} attribute (1 for the first) and the field is read as the
 * channel's {@link FieldType type}. The delimiter is a literal text ({@code ,} by default), or
 * {@code whitespace} for runs of spaces and tabs (leading and trailing ones ignored).
 */
final class DelimitedParser implements LineParser {

    /** The most fields a channel may name: a line is split into no more. */
    static final int MAX_FIELDS = 256;

    /** One channel's position (from 1) and type. */
    record Field(int position, FieldType type) {}

    private final Pattern delimiter;
    private final boolean whitespace;
    private final Map<String, Field> fields;
    private final int needed;

    /**
     * @param delimiter the literal delimiter, or {@code whitespace}
     * @param fields each channel's position and type, by channel name
     * @throws IllegalArgumentException for an empty delimiter or a position out of 1 to {@value #MAX_FIELDS}
     */
    DelimitedParser(String delimiter, Map<String, Field> fields) {
        if (delimiter.isEmpty()) {
            throw new IllegalArgumentException("parameter delimiter is empty; give the text between fields, such"
                    + " as ',' or ';', or the word whitespace");
        }
        this.whitespace = delimiter.equals("whitespace");
        this.delimiter = Pattern.compile(whitespace ? "[ \\t]+" : Pattern.quote(delimiter));
        fields.forEach((channel, f) -> {
            if (f.position() < 1 || f.position() > MAX_FIELDS) {
                throw new IllegalArgumentException("channel " + channel + ": field " + f.position()
                        + " is not a position from 1 to " + MAX_FIELDS);
            }
        });
        this.fields = new LinkedHashMap<>(fields);
        this.needed = fields.values().stream().mapToInt(Field::position).max().orElse(0);
    }

    @Override
    public Map<String, ChannelValue> parse(String line) throws UnparsableLineException {
        String[] parts = delimiter.split(whitespace ? line.strip() : line, MAX_FIELDS + 1);
        if (parts.length < needed) {
            throw new UnparsableLineException("line of " + parts.length + " fields, " + needed + " wanted: '"
                    + FieldType.shortened(line) + "'");
        }
        Map<String, ChannelValue> out = new HashMap<>();
        for (Map.Entry<String, Field> e : fields.entrySet()) {
            Field f = e.getValue();
            out.put(e.getKey(), ChannelValue.of(f.type().parse(parts[f.position() - 1], "channel " + e.getKey())));
        }
        return out;
    }
}
