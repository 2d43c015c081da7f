package org.salgate.plugin.modbus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.salgate.model.Value;
import org.salgate.plugin.modbus.ModbusChannel.Table;
import org.salgate.plugin.modbus.ModbusChannel.Type;

class RegistersTest {

    private static ModbusChannel at(int address, Type type, boolean wordsBig, boolean bytesBig) {
        return new ModbusChannel("c", Table.HOLDING, address, type, -1, wordsBig, bytesBig, true, 1, 0);
    }

    private static Value decode(Type type, boolean wordsBig, int... registers) {
        return Registers.decode(at(100, type, wordsBig, true), registers, 100);
    }

    @Test
    void sixteenBitTypesAreSignedOrNot() {
        assertEquals(Value.of(-2L), decode(Type.INT16, true, 0xFFFE));
        assertEquals(Value.of(65534L), decode(Type.UINT16, true, 0xFFFE));
        assertEquals(Value.of(1234L), decode(Type.INT16, false, 1234));
    }

    @Test
    void thirtyTwoBitTypesInBothWordOrders() {
        assertEquals(Value.of(-2L), decode(Type.INT32, true, 0xFFFF, 0xFFFE));
        assertEquals(Value.of(-2L), decode(Type.INT32, false, 0xFFFE, 0xFFFF));
        assertEquals(Value.of(0x12345678L), decode(Type.INT32, true, 0x1234, 0x5678));
        assertEquals(Value.of(0x12345678L), decode(Type.INT32, false, 0x5678, 0x1234));
        assertEquals(Value.of(4294967294L), decode(Type.UINT32, true, 0xFFFF, 0xFFFE));
        assertEquals(Value.of(4294967294L), decode(Type.UINT32, false, 0xFFFE, 0xFFFF));
        // 230.5f is 0x43668000
        assertEquals(Value.of(230.5), decode(Type.FLOAT32, true, 0x4366, 0x8000));
        assertEquals(Value.of(230.5), decode(Type.FLOAT32, false, 0x8000, 0x4366));
        int bits = Float.floatToIntBits(49.98f);
        assertEquals(Value.of(49.98), decode(Type.FLOAT32, true, bits >>> 16, bits & 0xffff),
                "a float reads as its shortest decimal, not as the double it widens to");
    }

    @Test
    void sixtyFourBitTypesInBothWordOrders() {
        assertEquals(Value.of(0x0102030405060708L), decode(Type.INT64, true, 0x0102, 0x0304, 0x0506, 0x0708));
        assertEquals(Value.of(0x0102030405060708L), decode(Type.INT64, false, 0x0708, 0x0506, 0x0304, 0x0102));
        assertEquals(Value.of(-1L), decode(Type.INT64, true, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF));
        // 1234567.875 is 0x4132D687E0000000
        assertEquals(Value.of(1234567.875), decode(Type.FLOAT64, true, 0x4132, 0xD687, 0xE000, 0x0000));
        assertEquals(Value.of(1234567.875), decode(Type.FLOAT64, false, 0x0000, 0xE000, 0xD687, 0x4132));
    }

    @Test
    void littleByteOrderSwapsTheBytesOfEachRegister() {
        ModbusChannel swapped = at(0, Type.FLOAT32, true, false);
        assertEquals(Value.of(230.5), Registers.decode(swapped, new int[] {0x6643, 0x0080}, 0));
        ModbusChannel both = at(0, Type.UINT32, false, false);
        assertEquals(Value.of(0x12345678L), Registers.decode(both, new int[] {0x7856, 0x3412}, 0));
    }

    @Test
    void aChannelIsDecodedAtItsOffsetInTheRequest() {
        int[] read = {1, 2, 0x4366, 0x8000, 5};
        assertEquals(Value.of(230.5), Registers.decode(at(12, Type.FLOAT32, true, true), read, 10));
    }

    @Test
    void aBitOfARegisterIsZeroOrOne() {
        ModbusChannel bit3 = new ModbusChannel("b", Table.INPUT, 0, Type.BOOL, 3, true, true, false, 1, 0);
        ModbusChannel bit15 = new ModbusChannel("b", Table.INPUT, 0, Type.BOOL, 15, true, true, false, 1, 0);
        assertEquals(Value.of(1L), Registers.decode(bit3, new int[] {0b1000}, 0));
        assertEquals(Value.of(0L), Registers.decode(bit3, new int[] {0b0111}, 0));
        assertEquals(Value.of(1L), Registers.decode(bit15, new int[] {0x8000}, 0));
    }

    @Test
    void encodingIsTheInverseOfDecodingForEveryTypeAndOrder() {
        Object[][] cases = {
            {Type.INT16, Value.of(-1234L)}, {Type.UINT16, Value.of(65535L)}, {Type.INT32, Value.of(-123456789L)},
            {Type.UINT32, Value.of(4000000000L)}, {Type.FLOAT32, Value.of(-0.5)},
            {Type.INT64, Value.of(Long.MIN_VALUE)}, {Type.FLOAT64, Value.of(Math.PI)},
        };
        for (Object[] c : cases) {
            for (boolean wordsBig : new boolean[] {true, false}) {
                for (boolean bytesBig : new boolean[] {true, false}) {
                    ModbusChannel ch = at(0, (Type) c[0], wordsBig, bytesBig);
                    int[] registers = Registers.encode(ch, (Value) c[1]);
                    assertEquals(((Type) c[0]).registers, registers.length);
                    assertEquals(c[1], Registers.decode(ch, registers, 0), c[0] + " " + wordsBig + " " + bytesBig);
                }
            }
        }
    }

    @Test
    void encodingPutsTheMostSignificantWordFirstInBigWordOrder() {
        assertArrayEquals(new int[] {0x4366, 0x8000}, Registers.encode(at(0, Type.FLOAT32, true, true), Value.of(230.5)));
        assertArrayEquals(new int[] {0x8000, 0x4366}, Registers.encode(at(0, Type.FLOAT32, false, true), Value.of(230.5)));
    }

    @Test
    void aNumberComputedFromAScaledValueIsRoundedToTheNearestWholeRaw() {
        assertArrayEquals(new int[] {230}, Registers.encode(at(0, Type.UINT16, true, true), Value.of(229.99999999999997)));
        assertArrayEquals(new int[] {0xFFFF}, Registers.encode(at(0, Type.INT16, true, true), Value.of(-1.0)));
    }

    @Test
    void valuesOutsideTheTypeAreRefusedNamingTheChannelAndTheRange() {
        for (Object[] c : new Object[][] {
            {Type.UINT16, Value.of(65536L)}, {Type.UINT16, Value.of(-1L)}, {Type.INT16, Value.of(32768.0)},
            {Type.UINT32, Value.of(-1.0)}, {Type.INT64, Value.of(0x1p63)}, {Type.FLOAT32, Value.of(Double.NaN)},
            {Type.INT32, Value.of("12")},
        }) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Registers.encode(at(0, (Type) c[0], true, true), (Value) c[1]), c[0] + " " + c[1]);
            assertTrue(e.getMessage().startsWith("Modbus channel c (" + ((Type) c[0]).word + ")"), e.getMessage());
        }
    }

    @Test
    void aCoilIsWrittenZeroOrOne() {
        ModbusChannel coil = new ModbusChannel("k", Table.COIL, 0, Type.BOOL, -1, true, true, true, 1, 0);
        assertEquals(true, Registers.bit(coil, Value.of(1L)));
        assertEquals(false, Registers.bit(coil, Value.of(0.0)));
        assertThrows(IllegalArgumentException.class, () -> Registers.bit(coil, Value.of(2L)));
    }

    private static ModbusChannel text(int length, boolean bytesBig) {
        return new ModbusChannel("s", Table.HOLDING, 10, Type.STRING, -1, true, bytesBig, false, 1, length);
    }

    @Test
    void aStringIsTwoAsciiCharactersARegisterWithItsPaddingTrimmed() {
        // "AB" "C" NUL, NUL NUL: trailing NULs trimmed
        assertEquals(Value.of("ABC"), Registers.decode(text(3, true), new int[] {0x4142, 0x4300, 0x0000}, 10));
        // "Hi" then two spaces, NUL: trailing spaces and NULs trimmed, an inner space kept
        assertEquals(Value.of("H i"), Registers.decode(text(3, true), new int[] {0x4820, 0x6920, 0x2000}, 10));
        // at its offset in the request, only its own registers
        assertEquals(Value.of("OK"), Registers.decode(text(1, true), new int[] {0x5858, 0x4F4B, 0x5858}, 9));
        assertEquals(Value.of(""), Registers.decode(text(2, true), new int[] {0x2000, 0x0000}, 10));
    }

    @Test
    void aStringInLittleByteOrderHasTheFirstCharacterInTheLowByte() {
        assertEquals(Value.of("ABC"), Registers.decode(text(2, false), new int[] {0x4241, 0x0043}, 10));
    }

    @Test
    void aByteOutsideAsciiIsTheReplacementCharacter() {
        assertEquals(Value.of("A\uFFFD"), Registers.decode(text(1, true), new int[] {0x41E9}, 10));
    }

    @Test
    void aStringIsNotWritten() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Registers.encode(text(2, true), Value.of(1L)));
        assertEquals("Modbus channel s is a string, which is read-only", e.getMessage());
    }
}
