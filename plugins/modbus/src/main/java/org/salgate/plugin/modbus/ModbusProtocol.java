package org.salgate.plugin.modbus;

import com.ghgande.j2mod.modbus.ModbusException;
import com.ghgande.j2mod.modbus.ModbusIOException;
import com.ghgande.j2mod.modbus.ModbusSlaveException;
import com.ghgande.j2mod.modbus.facade.AbstractModbusMaster;
import com.ghgande.j2mod.modbus.procimg.InputRegister;
import com.ghgande.j2mod.modbus.procimg.Register;
import com.ghgande.j2mod.modbus.procimg.SimpleRegister;
import com.ghgande.j2mod.modbus.util.BitVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;

/**
 * One Modbus device (TCP, or RTU on a serial line): its channels are read in coalesced requests
 * ({@link ReadPlanner}) and written one at a time. The agent serves the channels as sensors and
 * calls this protocol from one lane per device ({@link #concurrentRequests()} is false); the
 * methods are synchronized all the same.
 *
 * <p>Each request is tried once. A Modbus exception answer (such as "illegal data address") fails
 * the channels of that request only. Over TCP, no answer within {@code timeout-ms} or a lost
 * connection throws {@link SensorDisconnectedException} and the agent reconnects: after a
 * timeout a late answer could still come, out of step with the next request, and a new connection
 * drops it. On a serial line, a unit that does not answer is the line's normal way of saying it is
 * not there (several units share a line, and j2mod clears the line's input before each request):
 * it fails that request's channels, and only a port that closed (an adapter unplugged) is a lost
 * connection.
 */
final class ModbusProtocol implements SensorProtocol {

    private final String device;
    private final ModbusSettings settings;
    private final Supplier<AbstractModbusMaster> masters;
    private final boolean serialLine;
    private final Map<String, ModbusChannel> channels = new LinkedHashMap<>();
    private final ReadPlanner planner;
    private AbstractModbusMaster master;

    /**
     * @param settings the protocol's parameters, checked
     * @param device the device's endpoint, for messages
     * @param masters makes an unconnected j2mod master for the device, each time it connects
     * @param serialLine whether the device is on a serial line, where silence is not a lost connection
     * @throws IllegalArgumentException naming the first channel that is wrong
     */
    ModbusProtocol(ProtocolConfig config, ModbusSettings settings, String device,
                   Supplier<AbstractModbusMaster> masters, boolean serialLine) {
        this.device = device;
        this.serialLine = serialLine;
        this.settings = settings;
        this.masters = masters;
        for (ChannelConfig c : config.channels()) {
            channels.put(c.name(), ModbusChannel.of(c, settings));
        }
        this.planner = new ReadPlanner(settings.maxRegisters(), settings.maxGap());
    }

    @Override
    public synchronized void connect() throws Exception {
        disconnect();
        AbstractModbusMaster m = null;
        try {
            m = masters.get();
            m.connect();
        } catch (Exception e) {
            if (m != null) {
                m.disconnect();
            }
            String why = e.getCause() == null ? e.getMessage() : e.getMessage() + ": " + e.getCause();
            throw new SensorDisconnectedException("cannot reach Modbus device " + device + ": " + why, e);
        }
        // one try per request: j2mod's own retries would multiply timeout-ms
        m.setRetries(1);
        m.setTimeout(settings.timeoutMs());
        master = m;
    }

    @Override
    public synchronized void disconnect() {
        if (master != null) {
            master.disconnect();
            master = null;
        }
    }

    @Override
    public boolean concurrentRequests() {
        return false;
    }

    @Override
    public synchronized List<ChannelValue> read(List<ChannelRead> reads) throws Exception {
        AbstractModbusMaster m = connected();
        List<ModbusChannel> batch = new ArrayList<>(reads.size());
        for (ChannelRead r : reads) {
            batch.add(channel(r.channel()));
        }
        ChannelValue[] values = new ChannelValue[batch.size()];
        for (ReadPlanner.Request r : planner.plan(batch)) {
            int unit = r.unit();
            try {
                switch (r.table()) {
                    case COIL, DISCRETE_INPUT -> {
                        BitVector bits;
                        try {
                            bits = r.table() == ModbusChannel.Table.COIL
                                    ? m.readCoils(unit, r.start(), r.count())
                                    : m.readInputDiscretes(unit, r.start(), r.count());
                        } catch (IllegalArgumentException e) {
                            // j2mod's answer to an answer shorter than asked ("Size exceeds byte[] store")
                            fail(values, r, "the device answered fewer than the " + r.count() + " bits asked");
                            continue;
                        }
                        for (ReadPlanner.Slot s : r.slots()) {
                            values[s.index()] = ChannelValue.of(
                                    Value.of(bits.getBit(s.channel().address() - r.start()) ? 1L : 0L));
                        }
                    }
                    case INPUT, HOLDING -> {
                        InputRegister[] answer = r.table() == ModbusChannel.Table.INPUT
                                ? m.readInputRegisters(unit, r.start(), r.count())
                                : m.readMultipleRegisters(unit, r.start(), r.count());
                        if (answer.length < r.count()) {
                            fail(values, r, "the device answered " + answer.length + " registers for "
                                    + r.count());
                            continue;
                        }
                        int[] registers = new int[answer.length];
                        for (int i = 0; i < answer.length; i++) {
                            registers[i] = answer[i].toUnsignedShort();
                        }
                        for (ReadPlanner.Slot s : r.slots()) {
                            values[s.index()] = ChannelValue.of(Registers.decode(s.channel(), registers, r.start()));
                        }
                    }
                }
            } catch (ModbusSlaveException e) {
                fail(values, r, refusal(e) + " (" + r.table().word + " " + r.start() + " to "
                        + (r.start() + r.count() - 1) + (r.unit() == settings.unitId() ? "" : " of unit " + r.unit())
                        + ")");
            } catch (ModbusIOException e) {
                if (!silentUnit(m)) {
                    throw lost(e);
                }
                fail(values, r, silence(r.unit()) + ": " + e.getMessage());
            } catch (ModbusException e) {
                throw lost(e);
            }
        }
        return List.of(values);
    }

    @Override
    public synchronized void write(ChannelConfig config, Value raw) throws Exception {
        ModbusChannel c = channel(config);
        if (!c.writable()) {
            throw new PluginException("Modbus channel " + c.name() + " is read-only");
        }
        int unit = c.unit();
        try {
            if (c.table() == ModbusChannel.Table.COIL) {
                boolean state = Registers.bit(c, raw);
                connected().writeCoil(unit, c.address(), state);
            } else {
                int[] registers = Registers.encode(c, raw);
                AbstractModbusMaster m = connected();
                if (registers.length == 1) {
                    m.writeSingleRegister(unit, c.address(), new SimpleRegister(registers[0]));
                } else {
                    m.writeMultipleRegisters(unit, c.address(),
                            Arrays.stream(registers).mapToObj(SimpleRegister::new).toArray(Register[]::new));
                }
            }
        } catch (IllegalArgumentException e) {
            throw new PluginException(e.getMessage(), e);
        } catch (ModbusSlaveException e) {
            throw new PluginException("Modbus device " + device + " refused the write of channel " + c.name() + ": "
                    + refusal(e), e);
        } catch (ModbusIOException e) {
            if (!silentUnit(master)) {
                throw lost(e);
            }
            throw new PluginException("cannot write channel " + c.name() + ": " + silence(c.unit()) + ": "
                    + e.getMessage(), e);
        } catch (ModbusException e) {
            throw lost(e);
        }
    }

    @Override
    public List<SensorDescription> sensors() {
        return List.of();
    }

    @Override
    public List<CommandDescription> commands(String sensorId) {
        return List.of();
    }

    @Override
    public Value execute(String sensorId, String commandId, Map<String, String> arguments) throws Exception {
        throw new PluginException("a Modbus protocol has no sensors of its own: its channels are read as channels");
    }

    @Override
    public void close() {
        disconnect();
    }

    private AbstractModbusMaster connected() throws SensorDisconnectedException {
        if (master == null) {
            throw new SensorDisconnectedException("Modbus device " + device + " is not connected");
        }
        return master;
    }

    private ModbusChannel channel(ChannelConfig config) throws PluginException {
        ModbusChannel c = channels.get(config.name());
        if (c == null) {
            throw new PluginException("this Modbus protocol has no channel " + config.name());
        }
        return c;
    }

    /** Whether a request that failed on {@code m} failed for its unit alone: the serial line is still open. */
    private boolean silentUnit(AbstractModbusMaster m) {
        return serialLine && m != null && m.isConnected();
    }

    private String silence(int unit) {
        return "unit " + unit + " did not answer within timeout-ms " + settings.timeoutMs();
    }

    private SensorDisconnectedException lost(ModbusException e) {
        return new SensorDisconnectedException("Modbus device " + device + " did not answer (timeout-ms "
                + settings.timeoutMs() + ") or the connection was lost: " + e.getMessage(), e);
    }

    private static void fail(ChannelValue[] values, ReadPlanner.Request r, String why) {
        for (ReadPlanner.Slot s : r.slots()) {
            values[s.index()] = ChannelValue.failed(why);
        }
    }

    /** The Modbus exception's name as the specification writes it, in lower case: "illegal data address". */
    private static String refusal(ModbusSlaveException e) {
        return ModbusSlaveException.getMessage(e.getType()).toLowerCase(Locale.ROOT);
    }
}
