package org.salgate.plugin.modbus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.salgate.plugin.modbus.Channels.read;
import static org.salgate.plugin.modbus.Channels.readWrite;
import static org.salgate.plugin.modbus.Channels.reads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The driver on a serial line, Modbus RTU, against a real device (pymodbus; profile devices): a
 * pair of pseudo-terminals joined by socat, the device on one end and the driver on the other.
 * The line runs without parity: this machine's pseudo-terminals refuse even parity.
 */
@Tag("devices")
class ModbusRtuDeviceTest {

    private static final List<ChannelConfig> FIRST_REGISTER =
            List.of(read("uint16", "table", "holding", "address", "0"));

    private Process socat;
    private String deviceEnd;
    private String driverEnd;
    private PymodbusDevice device;

    @BeforeEach
    void start() throws Exception {
        socat = new ProcessBuilder("socat", "-d", "-d", "pty,raw,echo=0", "pty,raw,echo=0").start();
        BufferedReader log = new BufferedReader(new InputStreamReader(socat.getErrorStream(), StandardCharsets.UTF_8));
        List<String> ptys = new ArrayList<>();
        Pattern pty = Pattern.compile("PTY is (/dev/\\S+)");
        for (String line; ptys.size() < 2 && (line = log.readLine()) != null; ) {
            Matcher m = pty.matcher(line);
            if (m.find()) {
                ptys.add(m.group(1));
            }
        }
        assertEquals(2, ptys.size(), "socat gave no pair of pseudo-terminals");
        Thread drain = new Thread(() -> {
            try {
                log.transferTo(java.io.Writer.nullWriter());
            } catch (java.io.IOException e) {
                // socat stopped
            }
        }, "socat-log");
        drain.setDaemon(true);
        drain.start();
        deviceEnd = ptys.get(0);
        driverEnd = ptys.get(1);
        device = PymodbusDevice.rtu(deviceEnd);
    }

    @AfterEach
    void stop() throws Exception {
        if (device != null) {
            device.close();
        }
        socat.destroy();
        socat.waitFor(10, TimeUnit.SECONDS);
    }

    private SensorProtocol open(List<ChannelConfig> channels, Map<String, String> parameters) throws Exception {
        String endpoint = "serial:" + driverEnd + "?baud=9600&parity=none";
        ProtocolConfig config = new ProtocolConfig("line", "modbus", endpoint, parameters, List.of(), List.of(),
                channels);
        SensorProtocol protocol = new ModbusPlugin().open(config, TestContext.on(endpoint));
        protocol.connect();
        return protocol;
    }

    @Test
    void channelsAreReadAndWrittenOverRtu() throws Exception {
        List<ChannelConfig> channels = List.of(
                read("uint16", "table", "holding", "address", "0"),
                read("int32", "table", "holding", "address", "2", "type", "int32"),
                read("float32", "table", "holding", "address", "6", "type", "float32"),
                read("float64", "table", "holding", "address", "12", "type", "float64"),
                read("volts", "table", "input", "address", "0"),
                readWrite("relay", "table", "coil", "address", "11"),
                readWrite("limit", "table", "holding", "address", "36", "type", "float32"));
        try (SensorProtocol line = open(channels, Map.of())) {
            List<ChannelValue> values = line.read(reads(channels.subList(0, 5)));
            assertEquals(List.of(Value.of(1234L), Value.of(-123456L), Value.of(230.5), Value.of(1234567.875),
                    Value.of(2301L)), values.stream().map(ChannelValue::value).toList());
            assertEquals(List.of("4 0 1", "3 0 16"), device.takeRequests(2));
            line.write(channels.get(5), Value.of(1L));
            line.write(channels.get(6), Value.of(-0.25));
            assertEquals(List.of(Value.of(1L), Value.of(-0.25)),
                    line.read(reads(channels.subList(5, 7))).stream().map(ChannelValue::value).toList());
        }
    }

    @Test
    void aSilentUnitFailsItsChannelsWithinTimeoutMsAndTheLineStaysUp() throws Exception {
        List<ChannelConfig> channels = FIRST_REGISTER;
        try (SensorProtocol line = open(channels, Map.of("timeout-ms", "300"))) {
            assertEquals(Value.of(1234L), line.read(reads(channels)).get(0).value());
            device.close();
            long start = System.nanoTime();
            ChannelValue silent = line.read(reads(channels)).get(0);
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms >= 250 && ms < 2000, ms + " ms");
            assertTrue(silent.error().startsWith("unit 1 did not answer within timeout-ms 300"), silent.error());
            device = PymodbusDevice.rtu(deviceEnd);
            assertEquals(Value.of(1234L), line.read(reads(channels)).get(0).value());
        }
    }

    @Test
    void aClosedLineIsALostConnection() throws Exception {
        List<ChannelConfig> channels = FIRST_REGISTER;
        try (SensorProtocol line = open(channels, Map.of("timeout-ms", "300"))) {
            assertEquals(Value.of(1234L), line.read(reads(channels)).get(0).value());
            socat.destroy();
            assertTrue(socat.waitFor(10, TimeUnit.SECONDS));
            assertThrows(SensorDisconnectedException.class, () -> line.read(reads(channels)));
        }
    }
}
