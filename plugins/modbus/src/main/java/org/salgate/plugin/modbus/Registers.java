package org.salgate.plugin.modbus;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.salgate.model.Value;

/**
 * Turns a channel's 16-bit registers into its raw value and back. Modbus sends each register most
 * significant byte first; devices differ on the order of the registers of a 32- or 64-bit value
 * ({@code word-order}, big: the first register is the most significant) and some swap each
 * register's bytes ({@code byte-order} little). A bit or a bool is {@link Value.Int} 0 or 1 (the
 * model has no boolean value); integer types are {@link Value.Int}, float types {@link Value.Num},
 * a string {@link Value.Text}: two ASCII characters a register, the first in its first byte, the
 * NULs and spaces that pad it to its length trimmed.
 */
final class Registers {

    private Registers() {
    }

    /**
     * The value of {@code channel} from the registers of a read, which start at {@code first}.
     *
     * @param registers the unsigned 16-bit registers read
     */
    static Value decode(ModbusChannel channel, int[] registers, int first) {
        int at = channel.address() - first;
        if (channel.type() == ModbusChannel.Type.BOOL) {
            return Value.of((long) ((registers[at] >> channel.bit()) & 1));
        }
        if (channel.type() == ModbusChannel.Type.STRING) {
            return text(channel, registers, at);
        }
        ByteBuffer bytes = ByteBuffer.allocate(channel.type().registers * 2);
        int n = channel.type().registers;
        for (int i = 0; i < n; i++) {
            int register = registers[at + (channel.wordsBigEndian() ? i : n - 1 - i)];
            bytes.putShort((short) (channel.bytesBigEndian() ? register : Integer.reverseBytes(register) >>> 16));
        }
        bytes.flip();
        return switch (channel.type()) {
            case INT16 -> Value.of((long) bytes.getShort());
            case UINT16 -> Value.of((long) (bytes.getShort() & 0xFFFF));
            case INT32 -> Value.of((long) bytes.getInt());
            case UINT32 -> Value.of(bytes.getInt() & 0xFFFF_FFFFL);
            // the float's shortest decimal (49.98, not the widened 49.97999954223633)
            case FLOAT32 -> Value.of(Double.parseDouble(Float.toString(bytes.getFloat())));
            case INT64 -> Value.of(bytes.getLong());
            case FLOAT64 -> Value.of(bytes.getDouble());
            case BOOL, STRING -> throw new AssertionError("decoded above");
        };
    }

    /** The text of a string channel whose first register is {@code registers[at]}: ASCII, padding trimmed. */
    private static Value text(ModbusChannel channel, int[] registers, int at) {
        byte[] chars = new byte[channel.length() * 2];
        for (int i = 0; i < channel.length(); i++) {
            int register = registers[at + i];
            int first = channel.bytesBigEndian() ? register >> 8 : register & 0xFF;
            int second = channel.bytesBigEndian() ? register & 0xFF : register >> 8;
            chars[2 * i] = (byte) first;
            chars[2 * i + 1] = (byte) second;
        }
        int end = chars.length;
        while (end > 0 && (chars[end - 1] == 0 || chars[end - 1] == ' ')) {
            end--;
        }
        // a byte past 0x7F is not ASCII: it decodes as U+FFFD, the replacement character
        return Value.of(new String(chars, 0, end, StandardCharsets.US_ASCII));
    }

    /**
     * The registers that write {@code raw} to a register channel, in the channel's word and byte order.
     *
     * @throws IllegalArgumentException when the value does not fit the channel's type
     */
    static int[] encode(ModbusChannel channel, Value raw) {
        int n = channel.type().registers;
        ByteBuffer bytes = ByteBuffer.allocate(n * 2);
        switch (channel.type()) {
            case INT16 -> bytes.putShort((short) whole(channel, raw, Short.MIN_VALUE, Short.MAX_VALUE));
            case UINT16 -> bytes.putShort((short) whole(channel, raw, 0, 0xFFFF));
            case INT32 -> bytes.putInt((int) whole(channel, raw, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case UINT32 -> bytes.putInt((int) whole(channel, raw, 0, 0xFFFF_FFFFL));
            case INT64 -> bytes.putLong(whole(channel, raw, Long.MIN_VALUE, Long.MAX_VALUE));
            case FLOAT32 -> bytes.putFloat((float) number(channel, raw));
            case FLOAT64 -> bytes.putDouble(number(channel, raw));
            case BOOL -> throw new IllegalArgumentException("Modbus channel " + channel.name()
                    + " is one bit of a register, which cannot be written alone");
            case STRING -> throw new IllegalArgumentException("Modbus channel " + channel.name()
                    + " is a string, which is read-only");
        }
        bytes.flip();
        int[] registers = new int[n];
        for (int i = 0; i < n; i++) {
            int register = bytes.getShort() & 0xFFFF;
            registers[channel.wordsBigEndian() ? i : n - 1 - i] =
                    channel.bytesBigEndian() ? register : Integer.reverseBytes(register) >>> 16;
        }
        return registers;
    }

    /** The state to write to a coil: 0 or 1. */
    static boolean bit(ModbusChannel channel, Value raw) {
        long v = whole(channel, raw, 0, 1);
        return v == 1;
    }

    private static double number(ModbusChannel channel, Value raw) {
        if (raw instanceof Value.Num n && Double.isFinite(n.value())) {
            return n.value();
        }
        if (raw instanceof Value.Int i) {
            return i.value();
        }
        throw new IllegalArgumentException("Modbus channel " + channel.name() + " (" + channel.type().word
                + ") takes a finite number, not " + raw);
    }

    /**
     * A whole number from {@code min} to {@code max}: a number the agent computed from a scaled value
     * (such as 229.99999999999997 for 23.0 at scale 0.1) is rounded to the nearest.
     */
    private static long whole(ModbusChannel channel, Value raw, long min, long max) {
        String type = channel.type().word;
        if (raw instanceof Value.Int i && i.value() >= min && i.value() <= max) {
            return i.value();
        }
        if (raw instanceof Value.Num n && Double.isFinite(n.value())) {
            double r = Math.rint(n.value());
            // 2^63 is the first double past Long.MAX_VALUE, which a double cannot hold exactly
            if (r >= min && r <= max && r < 0x1p63) {
                return (long) r;
            }
        }
        throw new IllegalArgumentException("Modbus channel " + channel.name() + " (" + type + ") takes a whole number"
                + " from " + min + " to " + max + ", not " + raw);
    }
}
