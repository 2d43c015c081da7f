package org.salgate.plugin.opcua;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ulong;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ushort;

import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.ULong;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.salgate.model.Value;

/** Between OPC UA's built-in types and the agent's values. */
final class OpcuaValues {

    private OpcuaValues() {
    }

    /**
     * A node's value as the agent's: whole numbers (signed and unsigned) as integers, Float and
     * Double as decimals, Boolean as 1 or 0, DateTime as microseconds since the epoch, strings and
     * localized text as text, ByteString as bytes; anything else (arrays, structures) as its text.
     */
    static Value of(Variant variant) {
        Object v = variant == null ? null : variant.getValue();
        if (v == null) {
            return Value.absent();
        }
        if (v instanceof Double || v instanceof Float) {
            return Value.of(((Number) v).doubleValue());
        }
        if (v instanceof ULong u) {
            return u.longValue() >= 0 ? Value.of(u.longValue()) : Value.of(u.toBigInteger().doubleValue());
        }
        if (v instanceof Number n) {
            return Value.of(n.longValue());
        }
        if (v instanceof Boolean b) {
            return Value.of(b ? 1L : 0L);
        }
        if (v instanceof String s) {
            return Value.of(s);
        }
        if (v instanceof LocalizedText t) {
            return Value.of(t.text() == null ? "" : t.text());
        }
        if (v instanceof DateTime t) {
            return Value.of(TimeUnit.MILLISECONDS.toMicros(t.getJavaTime()));
        }
        if (v instanceof ByteString b) {
            return Value.of(b.bytesOrEmpty());
        }
        return Value.of(variant.toString());
    }

    /**
     * {@code raw} in the built-in type of {@code current}, the node's value now: a node of type
     * Int16 takes an Int16, and most servers refuse any other.
     *
     * @throws IllegalArgumentException when the value does not fit that type, or the type takes no number
     */
    static Variant like(Variant current, Value raw, OpcuaChannel channel) {
        double d;
        if (raw instanceof Value.Num n) {
            d = n.value();
        } else if (raw instanceof Value.Int i) {
            d = i.value();
        } else {
            throw new IllegalArgumentException("OPC UA channel " + channel.name() + " is written numbers, not " + raw);
        }
        Object type = current == null ? null : current.getValue();
        if (type == null || type instanceof Double) {
            return Variant.ofDouble(d);
        }
        if (type instanceof Float) {
            return Variant.ofFloat((float) d);
        }
        if (type instanceof Boolean) {
            if (d != 0 && d != 1) {
                throw new IllegalArgumentException(fits(channel, d, "Boolean", "0 or 1"));
            }
            return Variant.ofBoolean(d == 1);
        }
        if (d != Math.rint(d)) {
            throw new IllegalArgumentException(fits(channel, d, type.getClass().getSimpleName(), "a whole number"));
        }
        long l = (long) d;
        if (type instanceof Byte) {
            return Variant.ofSByte((byte) whole(channel, l, Byte.MIN_VALUE, Byte.MAX_VALUE, "SByte"));
        }
        if (type instanceof Short) {
            return Variant.ofInt16((short) whole(channel, l, Short.MIN_VALUE, Short.MAX_VALUE, "Int16"));
        }
        if (type instanceof Integer) {
            return Variant.ofInt32((int) whole(channel, l, Integer.MIN_VALUE, Integer.MAX_VALUE, "Int32"));
        }
        if (type instanceof Long) {
            return Variant.ofInt64(l);
        }
        if (type instanceof UByte) {
            return Variant.ofByte(ubyte(whole(channel, l, 0, 255, "Byte")));
        }
        if (type instanceof UShort) {
            return Variant.ofUInt16(ushort((int) whole(channel, l, 0, 65535, "UInt16")));
        }
        if (type instanceof UInteger) {
            return Variant.ofUInt32(uint(whole(channel, l, 0, 0xFFFF_FFFFL, "UInt32")));
        }
        if (type instanceof ULong) {
            return Variant.ofUInt64(ulong(whole(channel, l, 0, Long.MAX_VALUE, "UInt64")));
        }
        throw new IllegalArgumentException("OPC UA channel " + channel.name() + ": node " + channel.node()
                + " holds a " + type.getClass().getSimpleName() + ", which this driver does not write");
    }

    private static long whole(OpcuaChannel channel, long v, long min, long max, String type) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(fits(channel, v, type, min + " to " + max));
        }
        return v;
    }

    private static String fits(OpcuaChannel channel, double v, String type, String range) {
        return "OPC UA channel " + channel.name() + ": node " + channel.node() + " holds a " + type + ", which takes "
                + range + ", not " + (v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v))
                + "; set the channel's min and max to the node's range";
    }
}
