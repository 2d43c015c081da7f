package org.salgate.plugin.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.plugin.spi.SensorUnavailableException;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ChannelConfig.Access;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The driver against a serial line (profile devices): a pair of pseudo-terminals joined by socat,
 * linked under /dev/shm so that a restarted socat (the instrument plugged back) has the same
 * names; the test writes the instrument's lines on one end, the driver reads the other.
 */
@Tag("devices")
class SerialLineDeviceTest {

    private static final String GGA = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47";
    private static final String RMC = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A";

    private SocatLine line;
    private final Map<String, ChannelValue> pushed = new ConcurrentHashMap<>();
    private final Map<String, ChannelConfig> configured = new ConcurrentHashMap<>();
    private volatile SensorProtocol opened;
    /** Takes pushes as the agent does: only of the channels the protocol says it pushes now. */
    private final PushSink sink = (channel, value) -> {
        if (!opened.pushes(configured.get(channel))) {
            throw new IllegalArgumentException("protocol line has no pushed channel '" + channel + "'");
        }
        pushed.put(channel, value);
    };

    @BeforeEach
    void plugIn() throws Exception {
        line = new SocatLine();
    }

    @AfterEach
    void unplug() throws Exception {
        line.close();
    }

    private void startSocat() throws Exception {
        line.start();
    }

    private void stopSocat() throws Exception {
        line.stop();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        SocatLine.await(what, condition);
    }

    /** Writes lines as the instrument would. */
    private void send(String... lines) throws IOException {
        try (OutputStream out = new FileOutputStream(line.instrumentEnd().toFile())) {
            for (String l : lines) {
                out.write((l + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            }
        }
    }

    private static ChannelConfig channel(String name, String unit, String... attributes) {
        Map<String, String> a = new java.util.HashMap<>();
        for (int i = 0; i < attributes.length; i += 2) {
            a.put(attributes[i], attributes[i + 1]);
        }
        return new ChannelConfig(name, "", unit, 1, 0, Access.READ, null, null, a);
    }

    private SensorProtocol open(Map<String, String> parameters, ChannelConfig... channels) throws PluginException {
        String address = line.device() + "?baud=115200";
        ProtocolConfig config = new ProtocolConfig("line", "serial", "serial:" + address, parameters, List.of(),
                List.of(), List.of(channels));
        Endpoint endpoint = new TestEndpoint("serial", address, Optional.of(SerialPlugin.SERIAL.parse(address)));
        for (ChannelConfig c : channels) {
            configured.put(c.name(), c);
        }
        opened = new SerialPlugin().open(config, new PluginContext() {
            @Override
            public Endpoint endpoint() {
                return endpoint;
            }

            @Override
            public long nowMicros() {
                return System.currentTimeMillis() * 1000;
            }

            @Override
            public PushSink push() {
                return sink;
            }
        });
        return opened;
    }

    record TestEndpoint(String type, String address, Optional<DeviceAddress> target) implements Endpoint {}

    private Value value(String channel) throws InterruptedException {
        await(channel + " pushed", () -> pushed.containsKey(channel));
        return pushed.get(channel).value();
    }

    @Test
    void nmeaSentencesArePushedAndGarbageOverlongLinesAndBadChecksumsAreCountedWithoutStoppingTheReader()
            throws Exception {
        ChannelConfig latitude = channel("lat", "deg", "field", "latitude");
        try (SensorProtocol gps = open(Map.of("max-line", "100"), latitude, channel("altitude", "m"),
                channel("satellites", ""), channel("speed", "[kn_i]"), channel("rejected", "", "count", "rejected"))) {
            gps.connect();
            assertFalse(gps.pushes(latitude), "pushed before any line");
            send("\u0001\u00ffgarbage", "x".repeat(500), GGA.replace("*47", "*48"), RMC, GGA);
            assertEquals(Value.of(545.4), value("altitude"));
            assertEquals(Value.of(48.1173), value("lat"));
            assertEquals(Value.of(8L), value("satellites"));
            assertEquals(Value.of(22.4), value("speed"));
            await("3 rejected lines", () -> Value.of(3L).equals(pushed.get("rejected").value()));
            assertTrue(gps.pushes(latitude), "a fresh line's channels are not served as pushed");
        }
    }

    @Test
    void customLinesByPatternArriveInTheirTypes() throws Exception {
        try (SensorProtocol station = open(Map.of("format", "pattern",
                        "pattern", "T=(?<t>-?[0-9.]+)C H=(?<h>[0-9]+)%"),
                channel("temperature", "Cel", "group", "t"), channel("humidity", "%", "group", "h", "type", "integer"),
                channel("lines", "", "count", "lines"))) {
            station.connect();
            send("T=21.5C H=40%", "hello", "T=-2.5C H=91%");
            await("two lines", () -> pushed.containsKey("lines") && pushed.get("lines").value().equals(Value.of(2L)));
            assertEquals(Value.of(-2.5), value("temperature"));
            assertEquals(Value.of(91L), value("humidity"));
        }
    }

    @Test
    void anUnpluggedInstrumentIsALostConnectionAndItsPortOpensAgainOncePluggedBack() throws Exception {
        ChannelConfig altitude = channel("altitude", "m");
        try (SensorProtocol gps = open(Map.of(), altitude)) {
            gps.connect();
            send(GGA);
            assertEquals(Value.of(545.4), value("altitude"));
            stopSocat();
            await("the reader to see the port gone", () -> !gps.pushes(altitude));
            var lost = assertThrows(SensorDisconnectedException.class, () -> gps.read(List.of(new ChannelRead(altitude))));
            assertTrue(lost.getMessage().contains("unplugged"), lost.getMessage());
            gps.disconnect();
            startSocat();
            gps.connect();
            pushed.clear();
            send(GGA.replace("545.4", "546.0").replace("*47", "*" + String.format("%02X",
                    NmeaParserTest.sum(GGA.substring(0, GGA.indexOf('*')).replace("545.4", "546.0")))));
            assertEquals(Value.of(546.0), value("altitude"));
        }
    }

    @Test
    void aReadJustAfterThePortOpenedWaitsForTheFirstLineAndGivesItsValues() throws Exception {
        ChannelConfig altitude = channel("altitude", "m");
        ChannelConfig lines = channel("lines", "", "count", "lines");
        try (SensorProtocol gps = open(Map.of(), altitude, lines)) {
            gps.connect();
            Thread instrument = new Thread(() -> {
                try {
                    Thread.sleep(300);
                    send(GGA);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            instrument.start();
            long began = System.nanoTime();
            List<ChannelValue> read = gps.read(List.of(new ChannelRead(altitude), new ChannelRead(lines)));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            instrument.join();
            assertEquals(Value.of(545.4), read.get(0).value(), "the raw value of the line that came meanwhile");
            assertEquals(Value.of(1L), read.get(1).value());
            assertTrue(tookMs >= 200 && tookMs < SerialProtocol.FIRST_LINE_MS, tookMs + " ms");
        }
    }

    @Test
    void anInstrumentSilentForStaleMsMakesItsReadingsUnavailable() throws Exception {
        ChannelConfig altitude = channel("altitude", "m");
        try (SensorProtocol gps = open(Map.of("stale-ms", "300"), altitude)) {
            gps.connect();
            send(GGA);
            assertEquals(Value.of(545.4), value("altitude"));
            await("the line to go stale", () -> !gps.pushes(altitude));
            var stale = assertThrows(SensorUnavailableException.class, () -> gps.read(List.of(new ChannelRead(altitude))));
            assertTrue(stale.getMessage().contains("stale-ms 300"), stale.getMessage());
        }
    }

    @Test
    void badConfigurationIsRefusedWhenTheProtocolIsAddedNamingWhatIsWrong() throws Exception {
        assertRefused("not a regular expression", Map.of("format", "pattern", "pattern", "(?<t>[0-9"), channel("t", ""));
        assertRefused("no group named 'w'", Map.of("format", "pattern", "pattern", "(?<t>[0-9]+)"), channel("w", ""));
        assertRefused("NMEA field 'height' is unknown", Map.of(), channel("h", "m", "field", "height"));
        assertRefused("needs attribute field", Map.of("format", "delimited"), channel("x", ""));
        stopSocat();
        assertRefused("does not exist on this machine", Map.of(), channel("altitude", "m"));
        startSocat();
    }

    private void assertRefused(String message, Map<String, String> parameters, ChannelConfig... channels) {
        var e = assertThrows(PluginException.class, () -> open(parameters, channels));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
