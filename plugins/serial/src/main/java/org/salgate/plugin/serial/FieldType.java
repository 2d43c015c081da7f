package org.salgate.plugin.serial;

import java.util.Locale;
import org.salgate.model.Value;
import org.salgate.plugin.serial.LineParser.UnparsableLineException;

/**
 * What a field of a line holds, from a channel's {@code type} attribute: {@code number} (the
 * default: a decimal number, read as a double), {@code integer} (a whole number) or {@code text}.
 */
enum FieldType {
    NUMBER, INTEGER, TEXT;

    /**
     * The type a channel's {@code type} attribute names.
     *
     * @throws IllegalArgumentException for any other word
     */
    static FieldType of(String word) {
        if (word == null) {
            return NUMBER;
        }
        try {
            return valueOf(word.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("type '" + word + "' is number, integer or text");
        }
    }

    /**
     * The field's value.
     *
     * @param what the channel, for the message
     * @throws UnparsableLineException when the field is not of this type
     */
    Value parse(String field, String what) throws UnparsableLineException {
        String f = field.strip();
        try {
            return switch (this) {
                case NUMBER -> Value.of(Double.parseDouble(f));
                case INTEGER -> Value.of(Long.parseLong(f.startsWith("+") ? f.substring(1) : f));
                case TEXT -> Value.of(field);
            };
        } catch (NumberFormatException e) {
            throw new UnparsableLineException(what + ": '" + shortened(field) + "' is not "
                    + (this == NUMBER ? "a number" : "a whole number"));
        }
    }

    /** At most 40 characters of {@code text}, for messages about lines that may be long. */
    static String shortened(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
