package org.salgate.plugin.modbus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.plugin.modbus.ModbusChannel.Table;
import org.salgate.plugin.modbus.ModbusChannel.Type;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ChannelConfig.Access;

class ModbusChannelTest {

    private static ChannelConfig config(Access access, String... attributes) {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i < attributes.length; i += 2) {
            a.put(attributes[i], attributes[i + 1]);
        }
        return new ChannelConfig("ch", "", "", 1, 0, access, null, null, a);
    }

    private static ModbusChannel of(Access access, String... attributes) {
        return ModbusChannel.of(config(access, attributes), new ModbusSettings(1, 1000, 125, 10, 0, 0));
    }

    private static void refused(String expected, Access access, String... attributes) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> of(access, attributes));
        assertTrue(e.getMessage().startsWith("Modbus channel ch: "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void attributesSayTableAddressTypeAndOrders() {
        ModbusChannel c = of(Access.READ_WRITE, "table", "holding", "address", "40", "type", "Float32",
                "word-order", "little", "byte-order", "big");
        assertEquals(new ModbusChannel("ch", Table.HOLDING, 40, Type.FLOAT32, -1, false, true, true, 1, 0), c);
        assertEquals(2, c.width());
    }

    @Test
    void aChannelIsOfTheProtocolsUnitUnlessItNamesAnother() {
        ModbusSettings unit7 = new ModbusSettings(7, 1000, 125, 10, 0, 0);
        assertEquals(7, ModbusChannel.of(config(Access.READ, "table", "coil", "address", "0"), unit7).unit());
        assertEquals(12, ModbusChannel.of(config(Access.READ, "table", "coil", "address", "0", "unit-id", "12"),
                unit7).unit());
        refused("unit-id '248' is not a whole number from 1 to 247", Access.READ, "table", "coil", "address", "0",
                "unit-id", "248");
    }

    @Test
    void typeDefaultsToBoolForBitTablesAndUint16ForRegisters() {
        assertEquals(Type.BOOL, of(Access.READ, "table", "discrete-input", "address", "3").type());
        assertEquals(Type.UINT16, of(Access.READ, "table", "input", "address", "3").type());
    }

    @Test
    void aBitOfARegisterIsABool() {
        ModbusChannel c = of(Access.READ, "table", "input", "address", "7", "type", "bool", "bit", "15");
        assertEquals(15, c.bit());
        assertEquals(1, c.width());
        assertFalse(c.writable());
    }

    @Test
    void aMissingOrUnknownTableIsRefusedListingTheTables() {
        refused("attribute table is missing", Access.READ, "address", "0");
        refused("table 'holdings' is not one of coil, discrete-input, input, holding", Access.READ,
                "table", "holdings", "address", "0");
    }

    @Test
    void unknownAttributesAreRefusedListingTheKnownOnes() {
        refused("unknown attribute(s) adress; a Modbus channel's attributes are address, bit, byte-order, length,"
                + " table, type, unit-id, word-order", Access.READ, "table", "input", "adress", "0");
    }

    @Test
    void addressesAreZeroTo65535AndAValueMustEndThere() {
        refused("address '65536' is not a whole number from 0 to 65535", Access.READ, "table", "input",
                "address", "65536");
        refused("address '-1'", Access.READ, "table", "input", "address", "-1");
        refused("address 'x'", Access.READ, "table", "input", "address", "x");
        refused("type float64 takes 4 registers from address 65533: past the last address, 65535", Access.READ,
                "table", "input", "address", "65533", "type", "float64");
        assertEquals(65532, of(Access.READ, "table", "input", "address", "65532", "type", "float64").address());
    }

    @Test
    void typesMustFitTheTable() {
        refused("type 'float' is not one of bool, int16, uint16, int32, uint32, float32, int64, float64",
                Access.READ, "table", "input", "address", "0", "type", "float");
        refused("table coil holds bits: the type is bool, not uint16", Access.READ, "table", "coil", "address", "0",
                "type", "uint16");
        refused("type bool in a holding register needs attribute bit", Access.READ, "table", "holding",
                "address", "0", "type", "bool");
        refused("attribute bit picks one bit of a register", Access.READ, "table", "holding", "address", "0",
                "type", "uint16", "bit", "1");
        refused("bit '16' is not a whole number from 0 to 15", Access.READ, "table", "holding", "address", "0",
                "type", "bool", "bit", "16");
        refused("attribute word-order applies to registers only, not to table coil", Access.READ, "table", "coil", "address", "0",
                "word-order", "big");
        refused("byte-order 'middle' is big or little", Access.READ, "table", "input", "address", "0",
                "byte-order", "middle");
    }

    @Test
    void aTypeWiderThanMaxRegistersIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModbusChannel.of(
                config(Access.READ, "table", "input", "address", "0", "type", "int64"), new ModbusSettings(1, 1000, 2, 10, 0, 0)));
        assertTrue(e.getMessage().contains("type int64 takes 4 registers, more than max-registers 2"), e.getMessage());
    }

    @Test
    void writableChannelsMustBeCoilsOrWholeHoldingRegisters() {
        refused("access read-write, but table input is read-only; use access read, or table coil or holding", Access.READ_WRITE, "table", "input",
                "address", "0");
        refused("access write, but table discrete-input is read-only", Access.WRITE, "table", "discrete-input",
                "address", "0");
        refused("one bit of a register cannot be written alone", Access.READ_WRITE, "table", "holding",
                "address", "0", "type", "bool", "bit", "2");
        assertTrue(of(Access.WRITE, "table", "coil", "address", "0").writable());
        assertTrue(of(Access.READ_WRITE, "table", "holding", "address", "0", "type", "float64").writable());
    }

    @Test
    void aStringTakesTheRegistersItsLengthSays() {
        ModbusChannel c = of(Access.READ, "table", "holding", "address", "100", "type", "string", "length", "8",
                "byte-order", "little");
        assertEquals(new ModbusChannel("ch", Table.HOLDING, 100, Type.STRING, -1, true, false, false, 1, 8), c);
        assertEquals(8, c.width());
        assertEquals(108, c.end());
        assertEquals(125, of(Access.READ, "table", "input", "address", "0", "type", "string", "length", "125").width());
    }

    @Test
    void aStringNeedsALengthWithinOneRequestAndNoWordOrder() {
        refused("attribute length is missing", Access.READ, "table", "holding", "address", "0", "type", "string");
        refused("length '0' is not a whole number from 1 to 125", Access.READ, "table", "holding", "address", "0",
                "type", "string", "length", "0");
        refused("length '126' is not a whole number from 1 to 125", Access.READ, "table", "holding", "address", "0",
                "type", "string", "length", "126");
        refused("type string takes 10 registers from address 65530: past the last address, 65535", Access.READ,
                "table", "holding", "address", "65530", "type", "string", "length", "10");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModbusChannel.of(
                config(Access.READ, "table", "input", "address", "0", "type", "string", "length", "20"),
                new ModbusSettings(1, 1000, 16, 10, 0, 0)));
        assertTrue(e.getMessage().contains("type string takes 20 registers, more than max-registers 16"), e.getMessage());
        refused("attribute word-order orders the registers of a number", Access.READ, "table", "holding", "address",
                "0", "type", "string", "length", "2", "word-order", "little");
        refused("attribute length is the number of registers of a string; type uint32 has its own size",
                Access.READ, "table", "holding", "address", "0", "type", "uint32", "length", "2");
        refused("table coil holds bits: the type is bool, not string", Access.READ, "table", "coil", "address", "0",
                "type", "string", "length", "2");
    }

    @Test
    void aStringChannelIsReadOnly() {
        refused("access read-write, but a string channel is read-only (clients write numbers); use access read",
                Access.READ_WRITE, "table", "holding", "address", "0", "type", "string", "length", "4");
    }
}
