package org.salgate.codec.tree;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.salgate.wire.CodecException;

/**
 * A checked view of one object in a decoded tree: each accessor either returns a well-formed field
 * or throws a {@link CodecException} naming the field. Scalars may arrive as their own types (JSON,
 * MessagePack) or as text (XML), so both are accepted.
 */
final class Node {

    /** The field of an object that stands for a string escaped as base64 of its UTF-8 bytes. */
    static final String ESCAPED = "x64";

    private final JsonNode node;
    private final String path;

    Node(JsonNode node, String path) throws CodecException {
        if (node == null || !node.isObject()) {
            throw new CodecException(path + " should be an object, got " + kind(node));
        }
        this.node = node;
        this.path = path;
    }

    boolean has(String field) {
        JsonNode f = node.get(field);
        return f != null && !f.isNull();
    }

    private JsonNode field(String field) throws CodecException {
        JsonNode f = node.get(field);
        if (f == null || f.isNull()) {
            throw new CodecException(path + "." + field + " is missing");
        }
        return f;
    }

    Node object(String field) throws CodecException {
        return new Node(field(field), path + "." + field);
    }

    String text(String field) throws CodecException {
        JsonNode f = field(field);
        if (f.isTextual()) {
            return f.textValue();
        }
        if (f.isObject() && f.size() == 1 && f.get(ESCAPED) != null && f.get(ESCAPED).isTextual()) {
            try {
                return new String(Base64.getDecoder().decode(f.get(ESCAPED).textValue()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new CodecException(path + "." + field + " is not valid base64");
            }
        }
        if (f.isObject() && f.isEmpty()) {
            return ""; // an empty XML element
        }
        throw new CodecException(path + "." + field + " should be text, got " + kind(f));
    }

    long number(String field) throws CodecException {
        JsonNode f = field(field);
        if (f.isIntegralNumber() && f.canConvertToLong()) {
            return f.longValue();
        }
        if (f.isTextual()) {
            try {
                return Long.parseLong(f.textValue().trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new CodecException(path + "." + field + " should be an integer, got " + kind(f));
    }

    int integer(String field) throws CodecException {
        long v = number(field);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new CodecException(path + "." + field + " is out of range: " + v);
        }
        return (int) v;
    }

    double real(String field) throws CodecException {
        JsonNode f = field(field);
        if (f.isNumber()) {
            return f.doubleValue();
        }
        if (f.isTextual()) {
            try {
                return Double.parseDouble(f.textValue().trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new CodecException(path + "." + field + " should be a number, got " + kind(f));
    }

    boolean bool(String field) throws CodecException {
        JsonNode f = field(field);
        if (f.isBoolean()) {
            return f.booleanValue();
        }
        if (f.isTextual() && (f.textValue().equals("true") || f.textValue().equals("false"))) {
            return Boolean.parseBoolean(f.textValue());
        }
        throw new CodecException(path + "." + field + " should be true or false, got " + kind(f));
    }

    byte[] bytes(String field) throws CodecException {
        JsonNode f = field(field);
        if (f.isObject() && f.isEmpty()) {
            return new byte[0]; // an empty XML element
        }
        if (f.isBinary() || f.isTextual()) {
            try {
                return f.binaryValue();
            } catch (IOException | IllegalArgumentException e) {
                throw new CodecException(path + "." + field + " is not valid base64");
            }
        }
        throw new CodecException(path + "." + field + " should be bytes, got " + kind(f));
    }

    <E extends Enum<E>> E enumValue(String field, Class<E> type) throws CodecException {
        String name = text(field);
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new CodecException(path + "." + field + ": unknown " + type.getSimpleName() + " '" + name + "'");
        }
    }

    /** The elements of a list written as {@code {"n": count, "e": [...]}}. */
    List<Node> elements() throws CodecException {
        int n = integer("n");
        if (n < 0) {
            throw new CodecException(path + ".n is negative");
        }
        List<Node> out = new ArrayList<>();
        if (n == 0) {
            return out;
        }
        JsonNode e = field("e");
        if (e.isArray()) {
            for (int i = 0; i < e.size(); i++) {
                out.add(new Node(e.get(i), path + ".e[" + i + "]"));
            }
        } else {
            out.add(new Node(e, path + ".e")); // XML reads a single repeated element as an object
        }
        if (out.size() != n) {
            throw new CodecException(path + " should have " + n + " elements, has " + out.size());
        }
        return out;
    }

    private static String kind(JsonNode n) {
        return n == null ? "nothing" : n.getNodeType().name().toLowerCase();
    }
}
