package org.salgate.plugin.serial;

import com.fazecast.jSerialComm.SerialPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.DeviceProtocol;
import org.salgate.plugin.spi.SensorUnavailableException;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One serial line instrument: {@link #connect()} opens the port (jSerialComm) and starts its reader
 * thread, which cuts the bytes into lines ({@link LineSplitter}, at most {@code max-line} bytes),
 * parses each ({@link LineParser}) and pushes the values of its channels through the agent's push
 * sink. A line that is too long, fails its checksum or does not parse is dropped and counted (the
 * channels with attribute {@code count=rejected}, {@code count=lines}), and logged at most once a
 * minute with the count since; nothing a line holds stops the reader.
 *
 * <p>The agent asks {@link #pushes} at each read (and at each push): while the port is open and
 * lines came within {@code stale-ms}, the channels are served from their latest pushed values
 * without calling the protocol (the count channels whenever the port is open). Otherwise the read
 * reaches {@link #read}, which gives the latest line's values when one came meanwhile, or says why
 * not: a port that closed (the instrument unplugged) is a lost connection, so the agent marks the
 * sensors DISCONNECTED and reopens the port with its backoff; a port that is open but silent for
 * {@code stale-ms} (or has given no line since it opened) makes the readings UNAVAILABLE, saying for
 * how long. A read in the first {@link #FIRST_LINE_MS} ms after the port opened (at most
 * {@code stale-ms}) waits for the instrument's first line meanwhile, so that the reads of an agent
 * that just started or reconnected do not all find it silent.
 */
final class SerialProtocol implements DeviceProtocol {

    private static final Logger log = LoggerFactory.getLogger(SerialProtocol.class);
    /** How long a read of the port blocks before the reader looks whether it is closed. */
    private static final int READ_TIMEOUT_MS = 200;
    private static final long LOG_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** How long after the port opened a read waits for the first line. */
    static final long FIRST_LINE_MS = 1000;

    private final String name;
    private final String path;
    private final SerialSettings settings;
    private final LineParser parser;
    private final PushSink sink;
    private final List<ChannelConfig> channels;
    private final AtomicLong lines = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    /** Each channel's value in the latest line that gave it, since the port opened. */
    private final Map<String, ChannelValue> latest = new ConcurrentHashMap<>();
    /** The channels pushed since the port opened: the agent serves them from their pushes. */
    private final Set<String> pushed = ConcurrentHashMap.newKeySet();
    /** Whether this thread is pushing now: the agent asks {@link #pushes} within the push. */
    private final ThreadLocal<Boolean> pushing = ThreadLocal.withInitial(() -> false);
    /** Notified at the first line since the port opened. */
    private final Object firstLine = new Object();
    private volatile SerialPort port;
    private volatile Thread reader;
    /** Why the port was lost, or null while it is open (or not opened yet). */
    private volatile String lost;
    private volatile long openedNanos;
    /** When the last line parsed ({@link System#nanoTime()}), 0 for none since the port opened. */
    private volatile long lastLineNanos;
    private long loggedNanos;
    private long rejectedSinceLog;

    SerialProtocol(ProtocolConfig config, SerialSettings settings, String path, LineParser parser, PushSink sink) {
        this.name = config.name();
        this.path = path;
        this.settings = settings;
        this.parser = parser;
        this.sink = sink;
        this.channels = List.copyOf(config.channels());
    }

    @Override
    public synchronized void connect() throws Exception {
        disconnect();
        SerialPort p = SerialPort.getCommPort(path);
        p.setComPortParameters(settings.baud(), settings.dataBits(),
                settings.stopBits() == 2 ? SerialPort.TWO_STOP_BITS : SerialPort.ONE_STOP_BIT,
                switch (settings.parity()) {
                    case "even" -> SerialPort.EVEN_PARITY;
                    case "odd" -> SerialPort.ODD_PARITY;
                    default -> SerialPort.NO_PARITY;
                });
        p.setComPortTimeouts(SerialPort.TIMEOUT_READ_SEMI_BLOCKING, READ_TIMEOUT_MS, 0);
        if (!p.openPort()) {
            throw new SensorDisconnectedException("cannot open serial port " + path + " (error "
                    + p.getLastErrorCode() + "); is the instrument plugged in, and may the agent's user open it?");
        }
        latest.clear();
        pushed.clear();
        lastLineNanos = 0;
        openedNanos = System.nanoTime();
        lost = null;
        port = p;
        // the counts are known from now on, before any line
        pushCount("lines", lines.get());
        pushCount("rejected", rejected.get());
        Thread t = new Thread(() -> readLines(p), "serial-" + name);
        t.setDaemon(true);
        reader = t;
        t.start();
    }

    @Override
    public synchronized void disconnect() {
        SerialPort p = port;
        Thread t = reader;
        port = null;
        reader = null;
        if (p != null) {
            p.closePort();
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(2L * READ_TIMEOUT_MS + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The reader thread: lines until the port closes or fails. */
    private void readLines(SerialPort p) {
        LineSplitter splitter = new LineSplitter(settings.maxLine());
        byte[] buffer = new byte[4096];
        try {
            while (port == p && !Thread.currentThread().isInterrupted()) {
                int n = p.readBytes(buffer, buffer.length);
                if (n < 0) {
                    if (port == p) {
                        lose("serial port " + path + " closed (error " + p.getLastErrorCode()
                                + "): the instrument was unplugged or its adapter removed");
                    }
                    return;
                }
                splitter.feed(buffer, n, this::line, () -> reject("a line longer than max-line "
                        + settings.maxLine() + " bytes"));
            }
        } catch (RuntimeException e) {
            lose("serial port " + path + " failed: " + e);
            log.warn("serial protocol {}: the reader of {} stops", name, path, e);
        }
    }

    /** The port is lost: reads say why from now on, and one waiting for a first line stops waiting. */
    private void lose(String why) {
        lost = why;
        synchronized (firstLine) {
            firstLine.notifyAll();
        }
    }

    private void line(String line) {
        Map<String, ChannelValue> values;
        try {
            values = parser.parse(line);
        } catch (LineParser.UnparsableLineException e) {
            reject(e.getMessage());
            return;
        }
        // the line's values and count before it is fresh: a read that finds it fresh gives them
        latest.putAll(values);
        long count = lines.incrementAndGet();
        // fresh before its values are pushed: the agent takes pushes of the channels pushes() names
        boolean first = lastLineNanos == 0;
        lastLineNanos = System.nanoTime();
        if (first) {
            synchronized (firstLine) {
                firstLine.notifyAll();
            }
        }
        values.forEach(this::push);
        pushCount("lines", count);
    }

    private void push(String channel, ChannelValue value) {
        pushing.set(true);
        try {
            sink.push(channel, value);
            pushed.add(channel);
        } catch (IllegalArgumentException e) {
            // the agent closing the protocol, or the staleness deadline passed in between: the next line pushes again
            log.debug("serial protocol {}: push of {} refused", name, channel, e);
        } finally {
            pushing.set(false);
        }
    }

    private void reject(String why) {
        long count = rejected.incrementAndGet();
        rejectedSinceLog++;
        long now = System.nanoTime();
        if (loggedNanos == 0 || now - loggedNanos >= LOG_EVERY_NANOS) {
            log.warn("serial protocol {}: {} line(s) of {} rejected since the last report ({} in all); the last: {}",
                    name, rejectedSinceLog, path, count, why);
            loggedNanos = now;
            rejectedSinceLog = 0;
        }
        pushCount("rejected", count);
    }

    private void pushCount(String what, long count) {
        for (ChannelConfig c : channels) {
            if (what.equals(c.attributes().get(SerialSettings.COUNT))) {
                push(c.name(), ChannelValue.of(Value.of(count)));
            }
        }
    }

    /**
     * While the port is open: a count channel, whose counts are this protocol's own, once pushed
     * since; another once pushed and while lines are fresh. Within a push of this protocol's own, so
     * that the agent takes it, whether pushed before or not.
     */
    @Override
    public boolean pushes(ChannelConfig channel) {
        if (port == null || lost != null) {
            return false;
        }
        if (pushing.get()) {
            return true;
        }
        return pushed.contains(channel.name()) && (channel.attributes().containsKey(SerialSettings.COUNT) || fresh());
    }

    private boolean fresh() {
        long last = lastLineNanos;
        return last != 0 && System.nanoTime() - last < TimeUnit.MILLISECONDS.toNanos(settings.staleMs());
    }

    @Override
    public List<ChannelValue> read(List<ChannelRead> reads) throws Exception {
        long last = awaitFirstLine();
        String why = lost;
        if (why != null || port == null) {
            throw new SensorDisconnectedException(why != null ? why : "serial port " + path + " is not open");
        }
        long since = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - (last != 0 ? last : openedNanos));
        if (last != 0 && since < settings.staleMs()) {
            // a line came between the agent's look and this read: its values, as the next pushes give them
            List<ChannelValue> values = new ArrayList<>(reads.size());
            for (ChannelRead r : reads) {
                values.add(value(r.channel()));
            }
            return values;
        }
        throw new SensorUnavailableException("serial device " + path + " has sent no "
                + (last == 0 ? "line since its port opened " : "line for ") + since + " ms (stale-ms "
                + settings.staleMs() + ")");
    }

    /** A channel's latest value: its count, or its value in the latest line that gave one (absent for none). */
    private ChannelValue value(ChannelConfig channel) {
        String count = channel.attributes().get(SerialSettings.COUNT);
        if (count != null) {
            return ChannelValue.of(Value.of(count.equals("lines") ? lines.get() : rejected.get()));
        }
        return latest.getOrDefault(channel.name(), ChannelValue.of(Value.absent()));
    }

    /**
     * The time of the latest line, 0 for none; when the port opened less than {@link #FIRST_LINE_MS}
     * (at most stale-ms) ago and no line came yet, after waiting for one until then.
     */
    private long awaitFirstLine() throws InterruptedException {
        long until = openedNanos + TimeUnit.MILLISECONDS.toNanos(Math.min(FIRST_LINE_MS, settings.staleMs()));
        synchronized (firstLine) {
            while (lastLineNanos == 0 && port != null && lost == null) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(firstLine, left);
            }
        }
        return lastLineNanos;
    }

}
