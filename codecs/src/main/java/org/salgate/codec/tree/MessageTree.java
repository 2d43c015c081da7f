package org.salgate.codec.tree;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.MessageOrBuilder;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;
import org.salgate.wire.ProtobufCodec;
import org.salgate.wire.proto.WireProto;

/**
 * Maps the wire messages to a Jackson tree and back through their protobuf form: a message becomes
 * its {@code salgate.proto} frame ({@link ProtobufCodec#toProto}), and the frame a tree by walking
 * its descriptors. So JSON, MessagePack, XML and Java serialization share one document layout, and
 * a message type or field added to the schema needs no code here.
 *
 * <p>The layout:
 * <ul>
 *   <li>A message is an object whose keys are the JSON names of its set fields (lowerCamelCase:
 *       {@code protocolVersion}), in field-number order. Unset fields (proto3 defaults, the other
 *       members of a oneof) are left out, so a message with nothing set is an empty object. A oneof
 *       is its one set member, whose name is therefore the discriminator:
 *       {@code {"request": {"id": 7, "echo": {"int": 4}}}}.
 *   <li>A repeated field is an array of its elements, left out when empty. A map is a repeated field
 *       of {@code {"key": k, "value": v}} entries, sorted by key (keys need not be names, and one
 *       map always gives the same bytes).
 *   <li>Scalars are Jackson's own: booleans, numbers (unsigned 32- and 64-bit fields as unsigned
 *       values), text, enums by their schema names ({@code SENSOR_STATE_IDLE}), bytes as a binary
 *       node: base64 in JSON and XML, native binary in MessagePack and Java serialization.
 * </ul>
 *
 * <p>Reading is led by the schema, never by the shape of the document, which is the rule that lets
 * XML read back exactly although it cannot tell one element from a list of one, an empty element
 * from an empty object, or a number from text: a repeated field may hold one element in place of
 * an array, an empty text stands for an empty message, and scalars may arrive as text. A string
 * may also arrive as {@code {"x64": base64 of its UTF-8}}, which the XML codec writes for text that
 * XML cannot carry. Anything else is a {@link CodecException} naming the place: a field the message
 * does not have, a value of the wrong kind or out of its field's range, an unknown enum name, two
 * members of one oneof, a map key given twice, or a frame the model refuses.
 */
public final class MessageTree {

    /** The field of an object that stands for a string escaped as base64 of its UTF-8 bytes. */
    public static final String ESCAPED = "x64";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** Each message type's fields by JSON name; the schema has a fixed number of types. */
    private static final Map<Descriptor, Map<String, FieldDescriptor>> FIELDS = new ConcurrentHashMap<>();
    /** The longest text read as an integer: 2^64 has 20 digits, and a sign and blanks may come with it. */
    private static final int MAX_INTEGER_CHARS = 32;

    private MessageTree() {}

    // ------------------------------------------------------------------ writing

    /** The tree of a wire message. */
    public static ObjectNode write(Message message) {
        return write(ProtobufCodec.toProto(message));
    }

    /** The tree of any protobuf message. */
    public static ObjectNode write(MessageOrBuilder message) {
        ObjectNode o = F.objectNode();
        for (Map.Entry<FieldDescriptor, Object> f : message.getAllFields().entrySet()) {
            FieldDescriptor field = f.getKey();
            if (field.isRepeated()) {
                ArrayNode a = o.putArray(field.getJsonName());
                for (Object element : field.isMapField() ? sortedByKey(field, (List<?>) f.getValue())
                        : (List<?>) f.getValue()) {
                    a.add(value(field, element));
                }
            } else {
                o.set(field.getJsonName(), value(field, f.getValue()));
            }
        }
        return o;
    }

    private static JsonNode value(FieldDescriptor field, Object v) {
        return switch (field.getJavaType()) {
            case MESSAGE -> write((MessageOrBuilder) v);
            case ENUM -> F.textNode(((EnumValueDescriptor) v).getName());
            case STRING -> F.textNode((String) v);
            case BYTE_STRING -> F.binaryNode(((ByteString) v).toByteArray());
            case BOOLEAN -> F.booleanNode((Boolean) v);
            case DOUBLE -> F.numberNode((Double) v);
            case FLOAT -> F.numberNode((Float) v);
            case INT -> unsigned(field) ? F.numberNode(Integer.toUnsignedLong((Integer) v)) : F.numberNode((Integer) v);
            case LONG -> unsigned(field) && (Long) v < 0
                    ? F.numberNode(new BigInteger(Long.toUnsignedString((Long) v))) : F.numberNode((Long) v);
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<?> sortedByKey(FieldDescriptor map, List<?> entries) {
        FieldDescriptor key = map.getMessageType().findFieldByNumber(1);
        List<com.google.protobuf.Message> sorted = new ArrayList<>();
        entries.forEach(e -> sorted.add((com.google.protobuf.Message) e));
        sorted.sort((a, b) -> ((Comparable) a.getField(key)).compareTo(b.getField(key)));
        return sorted;
    }

    private static boolean unsigned(FieldDescriptor field) {
        return switch (field.getType()) {
            case UINT32, FIXED32, UINT64, FIXED64 -> true;
            default -> false;
        };
    }

    // ------------------------------------------------------------------ reading

    /**
     * The wire message of a tree.
     *
     * @throws CodecException if the tree is not a frame of the schema, or one the model refuses
     */
    public static Message read(JsonNode tree) throws CodecException {
        WireProto.Frame frame = read(tree, WireProto.Frame.newBuilder(), "frame").build();
        try {
            return ProtobufCodec.fromProto(frame);
        } catch (RuntimeException e) {
            // the model's checking constructors refuse what the schema let through
            throw new CodecException("the message is malformed: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a tree into a protobuf builder and returns the builder.
     *
     * @param path the name of the tree's place, for error messages
     * @throws CodecException if the tree is not a message of the builder's type
     */
    public static <B extends com.google.protobuf.Message.Builder> B read(JsonNode tree, B into, String path)
            throws CodecException {
        if (tree != null && tree.isTextual() && tree.textValue().isEmpty()) {
            return into; // an empty XML element
        }
        if (tree == null || !tree.isObject()) {
            throw new CodecException(path + " should be an object, got " + kind(tree));
        }
        Descriptor type = into.getDescriptorForType();
        Map<String, FieldDescriptor> fields = FIELDS.computeIfAbsent(type, MessageTree::fieldsByJsonName);
        for (Map.Entry<String, JsonNode> p : tree.properties()) {
            String at = path + "." + p.getKey();
            FieldDescriptor field = fields.get(p.getKey());
            if (field == null) {
                throw new CodecException(at + " is not a field of " + type.getName());
            }
            if (field.isRepeated()) {
                readRepeated(p.getValue(), field, into, at);
                continue;
            }
            OneofDescriptor oneof = field.getRealContainingOneof();
            if (oneof != null && into.hasOneof(oneof)) {
                throw new CodecException(at + ": the oneof " + oneof.getName() + " already has "
                        + into.getOneofFieldDescriptor(oneof).getJsonName());
            }
            into.setField(field, value(p.getValue(), field, into, at));
        }
        return into;
    }

    private static void readRepeated(JsonNode node, FieldDescriptor field, com.google.protobuf.Message.Builder into,
                                     String path) throws CodecException {
        // XML reads a single repeated element as the element itself
        List<JsonNode> elements = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(elements::add);
        } else {
            elements.add(node);
        }
        FieldDescriptor key = field.isMapField() ? field.getMessageType().findFieldByNumber(1) : null;
        Set<Object> keys = new HashSet<>();
        for (int i = 0; i < elements.size(); i++) {
            Object element = value(elements.get(i), field, into, path + "[" + i + "]");
            if (key != null && !keys.add(((com.google.protobuf.Message) element).getField(key))) {
                throw new CodecException(path + "[" + i + "]: the key '"
                        + ((com.google.protobuf.Message) element).getField(key) + "' is given twice");
            }
            into.addRepeatedField(field, element);
        }
    }

    private static Object value(JsonNode node, FieldDescriptor field, com.google.protobuf.Message.Builder parent,
                                String path) throws CodecException {
        return switch (field.getJavaType()) {
            case MESSAGE -> read(node, parent.newBuilderForField(field), path).build();
            case ENUM -> {
                String name = text(node, path);
                EnumValueDescriptor v = field.getEnumType().findValueByName(name);
                if (v == null) {
                    throw new CodecException(path + ": unknown " + field.getEnumType().getName() + " '" + name + "'");
                }
                yield v;
            }
            case STRING -> text(node, path);
            case BYTE_STRING -> ByteString.copyFrom(bytes(node, path));
            case BOOLEAN -> bool(node, path);
            case DOUBLE -> real(node, path);
            case FLOAT -> (float) real(node, path);
            case INT -> (int) integer(node, field, 32, path);
            case LONG -> integer(node, field, 64, path);
        };
    }

    private static Map<String, FieldDescriptor> fieldsByJsonName(Descriptor type) {
        Map<String, FieldDescriptor> byName = new HashMap<>();
        type.getFields().forEach(f -> byName.put(f.getJsonName(), f));
        return byName;
    }

    private static String text(JsonNode n, String path) throws CodecException {
        if (n.isTextual()) {
            return n.textValue();
        }
        if (n.isObject() && n.size() == 1 && n.get(ESCAPED) != null && n.get(ESCAPED).isTextual()) {
            try {
                return new String(Base64.getDecoder().decode(n.get(ESCAPED).textValue()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new CodecException(path + " is not valid base64");
            }
        }
        if (n.isObject() && n.isEmpty()) {
            return ""; // an empty XML element
        }
        throw new CodecException(path + " should be text, got " + kind(n));
    }

    /** An integer of {@code bits} bits, unsigned if its field is; returned as the bits of a long. */
    private static long integer(JsonNode n, FieldDescriptor field, int bits, String path) throws CodecException {
        BigInteger v = null;
        if (n.isIntegralNumber()) {
            v = n.bigIntegerValue();
        } else if (n.isTextual() && n.textValue().length() <= MAX_INTEGER_CHARS) {
            try {
                v = new BigInteger(n.textValue().trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        if (v == null) {
            throw new CodecException(path + " should be an integer, got " + kind(n));
        }
        boolean fits = unsigned(field) ? v.signum() >= 0 && v.bitLength() <= bits : v.bitLength() < bits;
        if (!fits) {
            throw new CodecException(path + " is out of range for " + field.getType().name().toLowerCase() + ": " + v);
        }
        return v.longValue();
    }

    private static double real(JsonNode n, String path) throws CodecException {
        if (n.isNumber()) {
            return n.doubleValue();
        }
        if (n.isTextual()) {
            try {
                return Double.parseDouble(n.textValue().trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new CodecException(path + " should be a number, got " + kind(n));
    }

    private static boolean bool(JsonNode n, String path) throws CodecException {
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        if (n.isTextual() && (n.textValue().equals("true") || n.textValue().equals("false"))) {
            return Boolean.parseBoolean(n.textValue());
        }
        throw new CodecException(path + " should be true or false, got " + kind(n));
    }

    private static byte[] bytes(JsonNode n, String path) throws CodecException {
        if (n.isObject() && n.isEmpty()) {
            return new byte[0]; // an empty XML element
        }
        if (n.isBinary() || n.isTextual()) {
            try {
                return n.binaryValue();
            } catch (IOException | IllegalArgumentException e) {
                throw new CodecException(path + " is not valid base64");
            }
        }
        throw new CodecException(path + " should be bytes, got " + kind(n));
    }

    private static String kind(JsonNode n) {
        return n == null ? "nothing" : n.getNodeType().name().toLowerCase();
    }
}
