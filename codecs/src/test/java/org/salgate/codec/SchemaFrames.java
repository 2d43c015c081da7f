package org.salgate.codec;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.salgate.wire.proto.WireProto;

/**
 * Frames made from the schema's descriptors alone: together they set every field of every message
 * a frame reaches, each to values other than its default (unsigned fields above the signed range,
 * text XML cannot carry, NaN), and every member of every oneof. A field or operation added to
 * {@code salgate.proto} is in them without a change here.
 */
public final class SchemaFrames {

    private SchemaFrames() {}

    public static List<WireProto.Frame> everyField() {
        List<WireProto.Frame> frames = new ArrayList<>();
        variants(WireProto.Frame.getDefaultInstance()).forEach(m -> frames.add((WireProto.Frame) m));
        return frames;
    }

    /** Every field of every message type a frame can hold. */
    public static Set<FieldDescriptor> reachableFields() {
        Set<FieldDescriptor> fields = new HashSet<>();
        collectReachable(WireProto.Frame.getDescriptor(), fields, new HashSet<>());
        return fields;
    }

    /** The fields set anywhere in a message. */
    public static void collectSet(Message message, Set<FieldDescriptor> into) {
        message.getAllFields().forEach((field, value) -> {
            into.add(field);
            if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                for (Object v : field.isRepeated() ? (List<?>) value : List.of(value)) {
                    collectSet((Message) v, into);
                }
            }
        });
    }

    private static void collectReachable(Descriptor type, Set<FieldDescriptor> fields, Set<Descriptor> seen) {
        if (seen.add(type)) {
            for (FieldDescriptor f : type.getFields()) {
                fields.add(f);
                if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                    collectReachable(f.getMessageType(), fields, seen);
                }
            }
        }
    }

    /**
     * A base message with every field set (repeated fields to all their values, each oneof to its
     * first member), and one more for each other value of each field.
     */
    private static List<Message> variants(Message prototype) {
        Message.Builder base = prototype.newBuilderForType();
        for (FieldDescriptor f : prototype.getDescriptorForType().getFields()) {
            OneofDescriptor oneof = f.getRealContainingOneof();
            if (f.isRepeated()) {
                Set<Object> keys = new HashSet<>(); // a map's entries need distinct keys
                for (Object v : values(base, f)) {
                    if (!f.isMapField() || keys.add(((Message) v).getField(f.getMessageType().findFieldByNumber(1)))) {
                        base.addRepeatedField(f, v);
                    }
                }
            } else if (oneof == null || oneof.getField(0) == f) {
                base.setField(f, values(base, f).get(0));
            }
        }
        Message built = base.build();
        List<Message> out = new ArrayList<>(List.of(built));
        for (FieldDescriptor f : prototype.getDescriptorForType().getFields()) {
            if (f.isRepeated()) {
                continue;
            }
            List<Object> values = values(base, f);
            boolean inBase = f.getRealContainingOneof() == null || f.getRealContainingOneof().getField(0) == f;
            for (Object v : inBase ? values.subList(1, values.size()) : values) {
                out.add(built.toBuilder().setField(f, v).build());
            }
        }
        return out;
    }

    private static List<Object> values(Message.Builder parent, FieldDescriptor f) {
        if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
            return new ArrayList<>(variants(parent.newBuilderForField(f).getDefaultInstanceForType()));
        }
        return List.of(scalar(f, 1), scalar(f, 2));
    }

    private static Object scalar(FieldDescriptor f, int seed) {
        boolean first = seed == 1;
        return switch (f.getJavaType()) {
            case ENUM -> f.getEnumType().getValues().get(Math.min(seed, f.getEnumType().getValues().size() - 1));
            case STRING -> first ? "text <&> \u00e9 \u6e29" : " \u0001 edge\r\n";
            case BYTE_STRING -> ByteString.copyFrom(new byte[] {(byte) seed, 0, (byte) 0xff});
            case BOOLEAN -> true;
            case DOUBLE -> first ? 2.5 : Double.NaN;
            case FLOAT -> first ? 2.5f : Float.NaN;
            case INT -> first ? -1 : Integer.MAX_VALUE;
            case LONG -> first ? -1L : Long.MIN_VALUE;
            case MESSAGE -> throw new IllegalArgumentException("not a scalar: " + f);
        };
    }
}
