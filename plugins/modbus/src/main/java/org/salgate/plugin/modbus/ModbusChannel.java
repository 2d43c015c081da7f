package org.salgate.plugin.modbus;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.salgate.plugin.spi.Settings;
import org.salgate.sensorml.ChannelConfig;

/**
 * Where a channel's value sits on a Modbus device, from the channel's PCML attributes:
 * {@code table} (coil, discrete-input, input, holding), {@code address} (the 0-based address of
 * the protocol data unit: holding register "40001" is address 0), {@code type}, for register
 * types {@code bit}, {@code word-order} and {@code byte-order}, {@code length} for type
 * {@code string} (its registers, two ASCII characters each), and {@code unit-id} for a channel
 * of another unit than the protocol's (several devices on one RTU line: one protocol per line).
 *
 * @param name the channel's name
 * @param table the table the value is in
 * @param address the address of its first coil, input or register
 * @param type how its registers or bit make a value
 * @param bit for {@link Type#BOOL} in a register table, which bit (0 = least significant); else -1
 * @param wordsBigEndian whether the first register of a multi-register value is the most significant
 * @param bytesBigEndian whether each register's first byte is its most significant (Modbus's own order)
 * @param writable whether clients may write the channel
 * @param unit the unit (slave) id of the device that holds the value
 * @param length for {@link Type#STRING}, how many registers the text takes; else 0
 */
record ModbusChannel(String name, Table table, int address, Type type, int bit, boolean wordsBigEndian,
                     boolean bytesBigEndian, boolean writable, int unit, int length) {

    /** The attributes a Modbus channel may have. */
    static final Set<String> ATTRIBUTES = Set.of("table", "address", "type", "bit", "word-order", "byte-order",
            "unit-id", "length");

    /** The four Modbus tables. */
    enum Table {
        COIL("coil", true, true),
        DISCRETE_INPUT("discrete-input", true, false),
        INPUT("input", false, false),
        HOLDING("holding", false, true);

        final String word;
        final boolean bits;
        final boolean writable;

        Table(String word, boolean bits, boolean writable) {
            this.word = word;
            this.bits = bits;
            this.writable = writable;
        }

        /** The most coils or registers one read request may ask for (Modbus application protocol, 6.1-6.4). */
        int protocolLimit() {
            return bits ? 2000 : 125;
        }

        static Table of(String word) {
            for (Table t : values()) {
                if (t.word.equals(word)) {
                    return t;
                }
            }
            return null;
        }
    }

    /** How a channel's registers (or bit) make a value. */
    enum Type {
        BOOL("bool", 0), INT16("int16", 1), UINT16("uint16", 1), INT32("int32", 2), UINT32("uint32", 2),
        FLOAT32("float32", 2), INT64("int64", 4), FLOAT64("float64", 4), STRING("string", 0);

        final String word;
        /** How many registers a value takes; 0 for one bit, and for a string, whose channel says its length. */
        final int registers;

        Type(String word, int registers) {
            this.word = word;
            this.registers = registers;
        }

        static Type of(String word) {
            for (Type t : values()) {
                if (t.word.equals(word)) {
                    return t;
                }
            }
            return null;
        }
    }

    /** How many coils or registers a read of this channel covers. */
    int width() {
        return switch (type) {
            case BOOL -> 1;
            case STRING -> length;
            default -> type.registers;
        };
    }

    /** The address after the channel's last coil or register. */
    int end() {
        return address + width();
    }

    /**
     * The channel {@code config} describes.
     *
     * @param settings the protocol's parameters: its unit id and the most registers one request may read
     * @throws IllegalArgumentException naming the channel and what is wrong with its attributes
     */
    static ModbusChannel of(ChannelConfig config, ModbusSettings settings) {
        int maxRegisters = settings.maxRegisters();
        String name = config.name();
        Map<String, String> a = config.attributes();
        Set<String> unknown = new TreeSet<>(a.keySet());
        unknown.removeAll(ATTRIBUTES);
        if (!unknown.isEmpty()) {
            throw bad(name, "unknown attribute(s) " + String.join(", ", unknown) + "; a Modbus channel's attributes"
                    + " are " + String.join(", ", new TreeSet<>(ATTRIBUTES)));
        }
        String tableWord = required(name, a, "table");
        Table table = Table.of(tableWord);
        if (table == null) {
            throw bad(name, "table '" + tableWord + "' is not one of "
                    + String.join(", ", Arrays.stream(Table.values()).map(t -> t.word).toList()));
        }
        int address = integer(name, "address", required(name, a, "address"), 0, 65535);
        String typeWord = a.getOrDefault("type", table.bits ? "bool" : "uint16").strip().toLowerCase(Locale.ROOT);
        Type type = Type.of(typeWord);
        if (type == null) {
            throw bad(name, "type '" + typeWord + "' is not one of "
                    + String.join(", ", Arrays.stream(Type.values()).map(t -> t.word).toList()));
        }
        if (table.bits && type != Type.BOOL) {
            throw bad(name, "table " + table.word + " holds bits: the type is bool, not " + type.word);
        }
        int bit = -1;
        if (a.containsKey("bit")) {
            if (table.bits || type != Type.BOOL) {
                throw bad(name, "attribute bit picks one bit of a register: it needs table input or holding and"
                        + " type bool");
            }
            bit = integer(name, "bit", a.get("bit"), 0, 15);
        } else if (!table.bits && type == Type.BOOL) {
            throw bad(name, "type bool in a " + table.word + " register needs attribute bit (0-15, 0 the least"
                    + " significant)");
        }
        int length = 0;
        if (type == Type.STRING) {
            length = integer(name, "length", required(name, a, "length"), 1, 125);
            if (a.containsKey("word-order")) {
                throw bad(name, "attribute word-order orders the registers of a number; a string's characters come"
                        + " in register order (byte-order little swaps the two characters of each register)");
            }
        } else if (a.containsKey("length")) {
            throw bad(name, "attribute length is the number of registers of a string; type " + type.word
                    + " has its own size");
        }
        boolean wordsBig = order(name, a, "word-order", table);
        boolean bytesBig = order(name, a, "byte-order", table);
        int unit = a.containsKey("unit-id") ? integer(name, "unit-id", a.get("unit-id"), 1, 247) : settings.unitId();
        ModbusChannel channel = new ModbusChannel(name, table, address, type, bit, wordsBig, bytesBig,
                config.access().writable(), unit, length);
        if (channel.end() - 1 > 65535) {
            throw bad(name, "type " + type.word + " takes " + channel.width() + " registers from address " + address
                    + ": past the last address, 65535");
        }
        if (!table.bits && channel.width() > maxRegisters) {
            throw bad(name, "type " + type.word + " takes " + channel.width() + " registers, more than max-registers "
                    + maxRegisters);
        }
        if (channel.writable) {
            if (!table.writable) {
                throw bad(name, "access " + config.access().word() + ", but table " + table.word + " is read-only;"
                        + " use access read, or table coil or holding");
            }
            if (bit >= 0) {
                throw bad(name, "access " + config.access().word() + ", but one bit of a register cannot be written alone;"
                        + " use access read");
            }
            if (type == Type.STRING) {
                throw bad(name, "access " + config.access().word() + ", but a string channel is read-only (clients"
                        + " write numbers); use access read");
            }
        }
        return channel;
    }

    private static boolean order(String name, Map<String, String> a, String key, Table table) {
        String word = a.get(key);
        if (word == null) {
            return true;
        }
        if (table.bits) {
            throw bad(name, "attribute " + key + " applies to registers only, not to table " + table.word);
        }
        return switch (word.strip().toLowerCase(Locale.ROOT)) {
            case "big" -> true;
            case "little" -> false;
            default -> throw bad(name, key + " '" + word + "' is big or little");
        };
    }

    private static String required(String name, Map<String, String> a, String key) {
        String value = a.get(key);
        if (value == null || value.isBlank()) {
            throw bad(name, "attribute " + key + " is missing");
        }
        return value.strip().toLowerCase(Locale.ROOT);
    }

    private static int integer(String name, String key, String text, int min, int max) {
        try {
            return Settings.wholeNumber(key, text, 0, min, max);
        } catch (IllegalArgumentException e) {
            throw bad(name, e.getMessage());
        }
    }

    private static IllegalArgumentException bad(String name, String what) {
        return new IllegalArgumentException("Modbus channel " + name + ": " + what);
    }
}
