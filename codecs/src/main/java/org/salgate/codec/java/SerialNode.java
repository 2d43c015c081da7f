package org.salgate.codec.java;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The serializable form of one node of the message tree. It is a record, so deserialization goes
 * through the checking constructor; its fields are only this type, strings and arrays, which keeps
 * the deserialization allow-list to a handful of classes.
 *
 * @param kind what the node is: one of the constants below
 * @param text the text of a {@link #TEXT} node
 * @param whole the value of a {@link #LONG} or {@link #BOOL} (0 or 1) node
 * @param real the value of a {@link #DOUBLE} node
 * @param bin the bytes of a {@link #BINARY} node
 * @param names the field names of an {@link #OBJECT} node, in order with {@code children}
 * @param children the fields of an {@link #OBJECT} node or the elements of an {@link #ARRAY} node
 */
record SerialNode(byte kind, String text, long whole, double real, byte[] bin, String[] names,
                  SerialNode[] children) implements Serializable {

    static final byte OBJECT = 1;
    static final byte ARRAY = 2;
    static final byte TEXT = 3;
    static final byte LONG = 4;
    static final byte DOUBLE = 5;
    static final byte BOOL = 6;
    static final byte BINARY = 7;

    SerialNode {
        switch (kind) {
            case OBJECT -> {
                if (names == null || children == null || names.length != children.length) {
                    throw new IllegalArgumentException("an object node needs as many names as children");
                }
            }
            case ARRAY -> {
                if (children == null) {
                    throw new IllegalArgumentException("an array node needs children");
                }
            }
            case TEXT -> {
                if (text == null) {
                    throw new IllegalArgumentException("a text node needs text");
                }
            }
            case BINARY -> {
                if (bin == null) {
                    throw new IllegalArgumentException("a binary node needs bytes");
                }
            }
            case LONG, DOUBLE, BOOL -> { }
            default -> throw new IllegalArgumentException("unknown node kind " + kind);
        }
    }

    /** The serializable form of a tree. */
    static SerialNode of(JsonNode n) {
        if (n.isObject()) {
            List<String> names = new ArrayList<>();
            List<SerialNode> children = new ArrayList<>();
            for (Map.Entry<String, JsonNode> f : n.properties()) {
                names.add(f.getKey());
                children.add(of(f.getValue()));
            }
            return new SerialNode(OBJECT, null, 0, 0, null, names.toArray(String[]::new),
                    children.toArray(SerialNode[]::new));
        }
        if (n.isArray()) {
            List<SerialNode> children = new ArrayList<>();
            n.forEach(e -> children.add(of(e)));
            return new SerialNode(ARRAY, null, 0, 0, null, null, children.toArray(SerialNode[]::new));
        }
        if (n.isBinary()) {
            try {
                return new SerialNode(BINARY, null, 0, 0, n.binaryValue(), null, null);
            } catch (IOException e) {
                throw new IllegalStateException("a binary node without bytes", e);
            }
        }
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            return new SerialNode(LONG, null, n.longValue(), 0, null, null, null);
        }
        if (n.isIntegralNumber()) { // an unsigned 64-bit value above Long.MAX_VALUE: the tree reads it as text
            return new SerialNode(TEXT, n.asText(), 0, 0, null, null, null);
        }
        if (n.isNumber()) {
            return new SerialNode(DOUBLE, null, 0, n.doubleValue(), null, null, null);
        }
        if (n.isBoolean()) {
            return new SerialNode(BOOL, null, n.booleanValue() ? 1 : 0, 0, null, null, null);
        }
        if (n.isTextual()) {
            return new SerialNode(TEXT, n.textValue(), 0, 0, null, null, null);
        }
        throw new IllegalArgumentException("cannot serialize a " + n.getNodeType() + " node");
    }

    /**
     * The tree this node stands for. A stream may refer to one node many times, so a small stream
     * can stand for a huge tree; expanding stops with a {@link TooLargeException} once the tree's
     * nodes, characters and bytes together pass {@code budget}.
     */
    JsonNode toTree(long budget) {
        return toTree(new long[] {budget}, budget);
    }

    private JsonNode toTree(long[] left, long budget) {
        long cost = 1 + (text == null ? 0 : text.length()) + (bin == null ? 0 : bin.length)
                + (names == null ? 0 : names.length);
        left[0] -= cost;
        if (left[0] < 0) {
            throw new TooLargeException(budget);
        }
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch (kind) {
            case OBJECT -> {
                ObjectNode o = f.objectNode();
                for (int i = 0; i < names.length; i++) {
                    o.set(names[i], children[i].toTree(left, budget));
                }
                yield o;
            }
            case ARRAY -> {
                ArrayNode a = f.arrayNode();
                for (SerialNode c : children) {
                    a.add(c.toTree(left, budget));
                }
                yield a;
            }
            case TEXT -> f.textNode(text);
            case LONG -> f.numberNode(whole);
            case DOUBLE -> f.numberNode(real);
            case BOOL -> f.booleanNode(whole != 0);
            case BINARY -> f.binaryNode(bin);
            default -> throw new IllegalStateException("unknown node kind " + kind);
        };
    }

    /** The tree a stream stands for is larger than its budget. */
    static final class TooLargeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLargeException(long budget) {
            super("the message expands to more than " + budget + " nodes, characters and bytes; a stream that "
                    + "refers to the same parts again and again is refused");
        }
    }
}
