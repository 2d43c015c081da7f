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
import java.util.Comparator;
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
import org.salgate.plugin.spi.DeviceProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Modbus device (TCP, or RTU on a serial line): its channels are read in coalesced requests
 * ({@link ReadPlanner}) and written one at a time. The agent serves the channels as sensors and
 * calls this protocol from one lane per device ({@link #concurrentRequests()} is false); the
 * methods are synchronized all the same.
 *
 * <p>A Modbus exception answer (such as "illegal data address") fails the channels of that request
 * only. Over TCP, a request the device left unanswered for {@code timeout-ms} is sent again
 * {@code retries} times (default 0), each time on a new connection: a late answer could still
 * come, out of step with the next request, and a new connection drops it. When no try is answered,
 * or the connection is lost, the protocol throws {@link SensorDisconnectedException} and the
 * agent reconnects. {@code min-interval-ms} (default 0) is the least time between the end of one
 * request (answer or silence) and the next, for devices that need a rest between requests; keep
 * {@code (retries + 1) * (timeout-ms + min-interval-ms)} within the agent's request deadline. On a
 * serial line, a unit that does not answer is the line's normal way of saying it is
 * not there (several units share a line, and j2mod clears the line's input before each request):
 * it fails that request's channels, and only a port that closed (an adapter unplugged) is a lost
 * connection.
 */
final class ModbusProtocol implements DeviceProtocol {

    private static final Logger log = LoggerFactory.getLogger(ModbusProtocol.class);

    private final String device;
    private final ModbusSettings settings;
    private final Supplier<AbstractModbusMaster> masters;
    private final boolean serialLine;
    private final Map<String, ModbusChannel> channels = new LinkedHashMap<>();
    private final ReadPlanner planner;
    private AbstractModbusMaster master;
    /** When the last request ended ({@link System#nanoTime()}), for min-interval-ms. */
    private long lastRequestEnd;
    private boolean requested;

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
        refuseSharedWrites(channels.values());
        this.planner = new ReadPlanner(settings.maxRegisters(), settings.maxGap());
    }

    @Override
    public synchronized void connect() throws Exception {
        open();
    }

    /** Opens a new connection to the device, closing the one it had. */
    private void open() throws SensorDisconnectedException {
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
        connected();
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
                            bits = exchange(m -> r.table() == ModbusChannel.Table.COIL
                                    ? m.readCoils(unit, r.start(), r.count())
                                    : m.readInputDiscretes(unit, r.start(), r.count()));
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
                        InputRegister[] answer = exchange(m -> r.table() == ModbusChannel.Table.INPUT
                                ? m.readInputRegisters(unit, r.start(), r.count())
                                : m.readMultipleRegisters(unit, r.start(), r.count()));
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
                if (!silentUnit(master)) {
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
                exchange(m -> m.writeCoil(unit, c.address(), state));
            } else {
                int[] registers = Registers.encode(c, raw);
                if (registers.length == 1) {
                    exchange(m -> m.writeSingleRegister(unit, c.address(), new SimpleRegister(registers[0])));
                } else {
                    exchange(m -> m.writeMultipleRegisters(unit, c.address(),
                            Arrays.stream(registers).mapToObj(SimpleRegister::new).toArray(Register[]::new)));
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

    /** One Modbus request on the device's connection. */
    @FunctionalInterface
    private interface Call<T> {
        T on(AbstractModbusMaster master) throws ModbusException;
    }

    /**
     * Sends {@code request} to the device min-interval-ms after the previous one ended at the
     * earliest; over TCP, sends it again on a new connection, up to {@code retries} times, while
     * the device leaves it unanswered for the whole of timeout-ms. A failure sooner than that (a
     * closed connection) is not a silence, and is not retried.
     */
    private <T> T exchange(Call<T> request) throws ModbusException, SensorDisconnectedException {
        for (int tried = 0; ; tried++) {
            AbstractModbusMaster m = connected();
            pace();
            long start = System.nanoTime();
            try {
                return request.on(m);
            } catch (ModbusIOException e) {
                // the socket's read timeout fires after timeout-ms; allow for the clock's granularity
                boolean silent = System.nanoTime() - start >= settings.timeoutMs() * 900_000L;
                if (serialLine || !silent || tried >= settings.retries()) {
                    throw e;
                }
                log.debug("Modbus device {} left a request unanswered for timeout-ms {}: try {} of {} on a new"
                        + " connection", device, settings.timeoutMs(), tried + 2, settings.retries() + 1);
                open();
            } finally {
                lastRequestEnd = System.nanoTime();
                requested = true;
            }
        }
    }

    /** Waits until min-interval-ms have passed since the previous request ended. */
    private void pace() {
        if (!requested || settings.minIntervalMs() == 0) {
            return;
        }
        long wait = lastRequestEnd + settings.minIntervalMs() * 1_000_000L - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Refuses two writable channels on one coil or register of one unit: a write to one would
     * change the other behind the client's back. Overlapping channels that are read only are
     * fine, such as a float and its two registers read apart.
     */
    private static void refuseSharedWrites(Iterable<ModbusChannel> all) {
        Map<String, List<ModbusChannel>> byTable = new LinkedHashMap<>();
        for (ModbusChannel c : all) {
            if (c.writable()) {
                byTable.computeIfAbsent(c.unit() + " " + c.table(), k -> new ArrayList<>()).add(c);
            }
        }
        for (List<ModbusChannel> writable : byTable.values()) {
            writable.sort(Comparator.comparingInt(ModbusChannel::address));
            for (int i = 1; i < writable.size(); i++) {
                ModbusChannel before = writable.get(i - 1);
                ModbusChannel c = writable.get(i);
                if (c.address() < before.end()) {
                    throw new IllegalArgumentException("Modbus channels " + before.name() + " and " + c.name()
                            + " are both writable and share " + c.table().word + " address " + c.address()
                            + " of unit " + c.unit()
                            + ": a write to one would change the other; make one of them access read");
                }
            }
        }
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
