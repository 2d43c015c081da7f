package org.salgate.plugin.modbus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Plans the Modbus requests that read a batch of channels: the channels of one table of one unit, sorted by
 * address, are coalesced into one request while the next channel starts at most {@code maxGap}
 * addresses after the request's end (reading through the gap costs less than another round trip)
 * and the request stays within {@code maxRegisters} registers (coils and discrete inputs: the
 * protocol's 2000). Telegraf's modbus input ({@code optimization}) and Kura's block aggregator do
 * the same.
 */
final class ReadPlanner {

    /** One channel of the batch served by a request: its position in the batch and the channel. */
    record Slot(int index, ModbusChannel channel) {
    }

    /**
     * One read request.
     *
     * @param unit the unit (slave) id it asks
     * @param table the table it reads
     * @param start its first address
     * @param count how many coils, inputs or registers it reads
     * @param slots the batch's channels it serves
     */
    record Request(int unit, ModbusChannel.Table table, int start, int count, List<Slot> slots) {
    }

    private final int maxRegisters;
    private final int maxGap;

    /**
     * @param maxRegisters the most registers a request reads, 1 to 125
     * @param maxGap the most unwanted addresses a request reads through between two channels
     */
    ReadPlanner(int maxRegisters, int maxGap) {
        this.maxRegisters = maxRegisters;
        this.maxGap = maxGap;
    }

    /** The requests that read {@code channels}: unit by unit, table by table, in ascending address order. */
    List<Request> plan(List<ModbusChannel> channels) {
        Map<Integer, Map<ModbusChannel.Table, List<Slot>>> byUnit = new TreeMap<>();
        for (int i = 0; i < channels.size(); i++) {
            ModbusChannel c = channels.get(i);
            byUnit.computeIfAbsent(c.unit(), u -> new EnumMap<>(ModbusChannel.Table.class))
                    .computeIfAbsent(c.table(), t -> new ArrayList<>()).add(new Slot(i, c));
        }
        List<Request> requests = new ArrayList<>();
        for (Map.Entry<Integer, Map<ModbusChannel.Table, List<Slot>>> u : byUnit.entrySet()) {
            for (Map.Entry<ModbusChannel.Table, List<Slot>> e : u.getValue().entrySet()) {
                plan(u.getKey(), e.getKey(), e.getValue(), requests);
            }
        }
        return requests;
    }

    /** Adds to {@code requests} those that read {@code slots}, all of one table of one unit. */
    private void plan(int unit, ModbusChannel.Table table, List<Slot> slots, List<Request> requests) {
        int limit = table.bits ? table.protocolLimit() : maxRegisters;
        slots.sort(Comparator.comparingInt((Slot s) -> s.channel().address()).thenComparingInt(Slot::index));
        int start = -1;
        int end = -1;
        List<Slot> current = new ArrayList<>();
        for (Slot s : slots) {
            ModbusChannel c = s.channel();
            if (!current.isEmpty() && c.address() - end <= maxGap && Math.max(end, c.end()) - start <= limit) {
                end = Math.max(end, c.end());
            } else {
                if (!current.isEmpty()) {
                    requests.add(new Request(unit, table, start, end - start, List.copyOf(current)));
                    current.clear();
                }
                start = c.address();
                end = c.end();
            }
            current.add(s);
        }
        if (!current.isEmpty()) {
            requests.add(new Request(unit, table, start, end - start, List.copyOf(current)));
        }
    }
}
