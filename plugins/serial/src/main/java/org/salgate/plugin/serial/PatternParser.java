package org.salgate.plugin.serial;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.salgate.plugin.spi.ChannelValue;

/**
 * Lines a regular expression with named groups matches as a whole, such as
 * {@code T=(?<temp>-?[0-9.]+)C H=(?<hum>[0-9.]+)%}: each channel names its group in its
 * {@code group} attribute (by default its own name) and the group's text is read as the channel's
 * {@link FieldType type}. A group that did not take part in the match gives no value.
 */
final class PatternParser implements LineParser {

    /** A named group in a pattern's text, {@code (?<name>}, not after a backslash. */
    private static final Pattern NAMED_GROUP = Pattern.compile("(?<!\\\\)\\(\\?<([a-zA-Z][a-zA-Z0-9]*)>");

    /** One channel's group and type. */
    record Field(String group, FieldType type) {}

    private final Pattern pattern;
    private final Map<String, Field> fields;

    /**
     * @param regex the pattern, as the operator wrote it
     * @param fields each channel's group and type, by channel name
     * @throws IllegalArgumentException when the pattern does not compile or has no group a channel names
     */
    PatternParser(String regex, Map<String, Field> fields) {
        try {
            this.pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("parameter pattern is not a regular expression: "
                    + e.getDescription() + " near index " + e.getIndex() + " of '" + regex + "'");
        }
        Set<String> groups = new TreeSet<>();
        NAMED_GROUP.matcher(regex).results().forEach(r -> groups.add(r.group(1)));
        fields.forEach((channel, field) -> {
            if (!groups.contains(field.group())) {
                throw new IllegalArgumentException("channel " + channel + ": the pattern has no group named '"
                        + field.group() + "'" + (groups.isEmpty() ? "; name a group (?<name>...) in the pattern"
                        : "; its groups are " + String.join(", ", groups)));
            }
        });
        this.fields = new LinkedHashMap<>(fields);
    }

    @Override
    public Map<String, ChannelValue> parse(String line) throws UnparsableLineException {
        Matcher m = pattern.matcher(line);
        if (!m.matches()) {
            throw new UnparsableLineException("the pattern does not match '" + FieldType.shortened(line) + "'");
        }
        Map<String, ChannelValue> out = new HashMap<>();
        for (Map.Entry<String, Field> e : fields.entrySet()) {
            String text = m.group(e.getValue().group());
            if (text != null) {
                out.put(e.getKey(), ChannelValue.of(e.getValue().type().parse(text, "channel " + e.getKey())));
            }
        }
        return out;
    }
}
