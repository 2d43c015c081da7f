package org.salgate.plugin.modbus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.plugin.modbus.ModbusChannel.Table;
import org.salgate.plugin.modbus.ModbusChannel.Type;

class ReadPlannerTest {

    static ModbusChannel channel(String name, Table table, int address, Type type) {
        return new ModbusChannel(name, table, address, type, type == Type.BOOL && !table.bits ? 0 : -1, true, true,
                false, 1, 0);
    }

    private static String describe(List<ReadPlanner.Request> requests) {
        StringBuilder b = new StringBuilder();
        for (ReadPlanner.Request r : requests) {
            b.append(r.table().word).append(' ').append(r.start()).append('+').append(r.count())
                    .append(r.slots().stream().map(s -> s.channel().name() + "#" + s.index()).toList()).append(';');
        }
        return b.toString();
    }

    @Test
    void contiguousRegistersOfOneTableAreReadInOneRequest() {
        List<ModbusChannel> batch = List.of(
                channel("v", Table.HOLDING, 0, Type.UINT16),
                channel("p", Table.HOLDING, 1, Type.FLOAT32),
                channel("e", Table.HOLDING, 3, Type.INT64));
        assertEquals("holding 0+7[v#0, p#1, e#2];", describe(new ReadPlanner(125, 0).plan(batch)));
    }

    @Test
    void gapsUpToMaxGapAreReadThroughAndWiderGapsStartANewRequest() {
        List<ModbusChannel> batch = List.of(
                channel("a", Table.INPUT, 0, Type.UINT16),
                channel("b", Table.INPUT, 11, Type.UINT16),   // gap of 10 after a: read through
                channel("c", Table.INPUT, 23, Type.UINT16));  // gap of 11 after b: new request
        assertEquals("input 0+12[a#0, b#1];input 23+1[c#2];", describe(new ReadPlanner(125, 10).plan(batch)));
        assertEquals("input 0+1[a#0];input 11+1[b#1];input 23+1[c#2];",
                describe(new ReadPlanner(125, 0).plan(batch)));
    }

    @Test
    void aRequestNeverReadsMoreThanMaxRegisters() {
        List<ModbusChannel> batch = List.of(
                channel("a", Table.HOLDING, 0, Type.FLOAT64),
                channel("b", Table.HOLDING, 4, Type.FLOAT64),
                channel("c", Table.HOLDING, 8, Type.FLOAT64));
        assertEquals("holding 0+8[a#0, b#1];holding 8+4[c#2];", describe(new ReadPlanner(8, 10).plan(batch)));
        assertEquals("holding 0+4[a#0];holding 4+4[b#1];holding 8+4[c#2];",
                describe(new ReadPlanner(6, 10).plan(batch)));
    }

    @Test
    void tablesAreReadApartAndChannelsInAddressOrderWithTheirBatchPositions() {
        List<ModbusChannel> batch = List.of(
                channel("h2", Table.HOLDING, 2, Type.UINT16),
                channel("c5", Table.COIL, 5, Type.BOOL),
                channel("i0", Table.INPUT, 0, Type.UINT16),
                channel("h0", Table.HOLDING, 0, Type.UINT16),
                channel("c0", Table.COIL, 0, Type.BOOL),
                channel("d0", Table.DISCRETE_INPUT, 0, Type.BOOL));
        assertEquals("coil 0+6[c0#4, c5#1];discrete-input 0+1[d0#5];input 0+1[i0#2];holding 0+3[h0#3, h2#0];",
                describe(new ReadPlanner(125, 10).plan(batch)));
    }

    @Test
    void coilsAreCoalescedUpToTheProtocolsTwoThousandBitsWhateverMaxRegisters() {
        List<ModbusChannel> batch = List.of(
                channel("a", Table.COIL, 0, Type.BOOL),
                channel("b", Table.COIL, 1999, Type.BOOL),
                channel("c", Table.COIL, 2000, Type.BOOL));
        assertEquals("coil 0+2000[a#0, b#1];coil 2000+1[c#2];", describe(new ReadPlanner(10, 2000).plan(batch)));
    }

    @Test
    void overlappingAndRepeatedChannelsShareARequest() {
        List<ModbusChannel> batch = List.of(
                channel("wide", Table.HOLDING, 10, Type.INT32),
                channel("low", Table.HOLDING, 11, Type.UINT16),
                channel("wide", Table.HOLDING, 10, Type.INT32));
        assertEquals("holding 10+2[wide#0, wide#2, low#1];", describe(new ReadPlanner(125, 0).plan(batch)));
    }

    @Test
    void eachUnitIsAskedApart() {
        List<ModbusChannel> batch = List.of(
                new ModbusChannel("u2", Table.HOLDING, 1, Type.UINT16, -1, true, true, false, 2, 0),
                new ModbusChannel("u1", Table.HOLDING, 0, Type.UINT16, -1, true, true, false, 1, 0),
                new ModbusChannel("u2b", Table.HOLDING, 0, Type.UINT16, -1, true, true, false, 2, 0));
        List<ReadPlanner.Request> plan = new ReadPlanner(125, 10).plan(batch);
        assertEquals("holding 0+1[u1#1];holding 0+2[u2b#2, u2#0];", describe(plan));
        assertEquals(List.of(1, 2), plan.stream().map(ReadPlanner.Request::unit).toList());
    }

    @Test
    void bitsOfOneRegisterAreReadOnce() {
        List<ModbusChannel> batch = List.of(
                new ModbusChannel("alarm", Table.INPUT, 7, Type.BOOL, 3, true, true, false, 1, 0),
                new ModbusChannel("run", Table.INPUT, 7, Type.BOOL, 0, true, true, false, 1, 0));
        assertEquals("input 7+1[alarm#0, run#1];", describe(new ReadPlanner(125, 0).plan(batch)));
    }
}
