package org.salgate.plugin.modbus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.salgate.plugin.modbus.Channels.read;
import static org.salgate.plugin.modbus.Channels.readWrite;
import static org.salgate.plugin.modbus.Channels.reads;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.ProtocolConfig;

/** The plugin and its protocol without a Modbus device: configuration checks, and devices that fail. */
class ModbusPluginTest {

    private static final ChannelConfig VOLTS = read("volts", "table", "input", "address", "0");

    private static ProtocolConfig config(String endpoint, Map<String, String> parameters, ChannelConfig... channels) {
        return new ProtocolConfig("meter", "modbus", endpoint, parameters, List.of(), List.of(), List.of(channels));
    }

    private static PluginException refused(ProtocolConfig config, String endpoint) {
        return assertThrows(PluginException.class, () -> new ModbusPlugin().open(config, TestContext.on(endpoint)));
    }

    @Test
    void thePluginIsFoundAsAServiceAndBringsTheTcpAndSerialEndpointTypes() {
        SensorPlugin plugin = ServiceLoader.load(SensorPlugin.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.type().equals("modbus")).findFirst().orElseThrow();
        assertEquals(List.of("tcp", "serial"), plugin.endpointTypes().stream().map(t -> t.name()).toList());
        assertEquals(new DeviceAddress.Network("10.0.0.5", 502), plugin.endpointTypes().get(0).parse("10.0.0.5"));
    }

    @Test
    void aProtocolServesNoSensorsOfItsOwnAndTakesRequestsOneAtATime() throws Exception {
        try (SensorProtocol p = new ModbusPlugin().open(config("tcp:127.0.0.1:1502", Map.of(), VOLTS),
                TestContext.on("tcp:127.0.0.1:1502"))) {
            assertEquals(List.of(), p.sensors());
            assertEquals(List.of(), p.commands("meter.volts"));
            assertFalse(p.concurrentRequests());
        }
    }

    @Test
    void aWrongChannelIsRefusedAtOpenNamingIt() {
        PluginException e = refused(config("tcp:127.0.0.1", Map.of(), VOLTS,
                readWrite("relay", "table", "discrete-input", "address", "3")), "tcp:127.0.0.1");
        assertEquals("Modbus channel relay: access read-write, but table discrete-input is read-only; use access read,"
                + " or table coil or holding", e.getMessage());
    }

    @Test
    void wrongParametersAreRefusedAtOpen() {
        assertEquals("Modbus protocol meter: parameter unit-id '0' is not a whole number from 1 to 247",
                refused(config("tcp:127.0.0.1", Map.of("unit-id", "0"), VOLTS), "tcp:127.0.0.1").getMessage());
        assertEquals("Modbus protocol meter: parameter max-registers '126' is not a whole number from 1 to 125",
                refused(config("tcp:127.0.0.1", Map.of("max-registers", "126"), VOLTS), "tcp:127.0.0.1").getMessage());
        assertEquals("serial setting parity 'mark' is none, even or odd",
                refused(config("serial:/dev/ttyUSB0?parity=mark", Map.of(), VOLTS), "serial:/dev/ttyUSB0?parity=mark")
                        .getMessage());
        assertEquals("serial setting baud 'fast' is not a whole number from 50 to 4000000",
                refused(config("serial:/dev/ttyUSB0?baud=fast", Map.of(), VOLTS), "serial:/dev/ttyUSB0?baud=fast")
                        .getMessage());
    }

    @Test
    void aSerialPortThatDoesNotExistIsRefusedAtOpen() {
        assertEquals("serial port /dev/ttySALGATE9 does not exist on this machine; check its name (ls"
                + " /dev/serial/by-id) and that the adapter is plugged in",
                refused(config("serial:/dev/ttySALGATE9", Map.of(), VOLTS), "serial:/dev/ttySALGATE9").getMessage());
    }

    @Test
    void anEndpointTheAgentDidNotParseIsParsedOrRefused() throws Exception {
        new ModbusPlugin().open(config("tcp:127.0.0.1", Map.of(), VOLTS), TestContext.unparsed("tcp", "127.0.0.1")).close();
        PluginException e = assertThrows(PluginException.class, () -> new ModbusPlugin().open(
                config("virtual", Map.of(), VOLTS), TestContext.unparsed("virtual", "")));
        assertEquals("a Modbus protocol's endpoint is tcp:HOST:PORT or serial:/dev/PORT[?baud=9600&data-bits=8"
                + "&parity=none&stop-bits=1], not 'virtual'", e.getMessage());
    }

    @Test
    void aDeviceThatAcceptsButNeverAnswersFailsTheReadWithinTimeoutMs() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String endpoint = "tcp:127.0.0.1:" + silent.getLocalPort();
            try (SensorProtocol p = new ModbusPlugin().open(config(endpoint, Map.of("timeout-ms", "300"), VOLTS),
                    TestContext.on(endpoint))) {
                p.connect();
                try (Socket accepted = silent.accept()) {
                    assertTrue(accepted.isConnected());
                    long start = System.nanoTime();
                    SensorDisconnectedException e = assertThrows(SensorDisconnectedException.class,
                            () -> p.read(reads(List.of(VOLTS))));
                    long ms = (System.nanoTime() - start) / 1_000_000;
                    assertTrue(ms >= 250 && ms < 1500, ms + " ms");
                    assertTrue(e.getMessage().startsWith("Modbus device " + endpoint + " did not answer (timeout-ms"
                            + " 300)"), e.getMessage());
                }
            }
        }
    }

    @Test
    void aDeviceThatRefusesTheConnectionCannotBeReached() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String endpoint = "tcp:127.0.0.1:" + port;
        try (SensorProtocol p = new ModbusPlugin().open(config(endpoint, Map.of(), VOLTS), TestContext.on(endpoint))) {
            SensorDisconnectedException e = assertThrows(SensorDisconnectedException.class, p::connect);
            assertTrue(e.getMessage().startsWith("cannot reach Modbus device " + endpoint + ": "), e.getMessage());
            SensorDisconnectedException notConnected = assertThrows(SensorDisconnectedException.class,
                    () -> p.read(reads(List.of(VOLTS))));
            assertEquals("Modbus device " + endpoint + " is not connected", notConnected.getMessage());
        }
    }

    @Test
    void writesOfReadOnlyChannelsOrOfValuesTheTypeCannotHoldFailBeforeTheDeviceIsAsked() throws Exception {
        ChannelConfig setpoint = readWrite("setpoint", "table", "holding", "address", "3", "type", "int16");
        try (SensorProtocol p = new ModbusPlugin().open(config("tcp:127.0.0.1", Map.of(), VOLTS, setpoint),
                TestContext.on("tcp:127.0.0.1"))) {
            // not connected: a write that reached the device would fail as disconnected instead
            assertEquals("Modbus channel volts is read-only",
                    assertThrows(PluginException.class, () -> p.write(VOLTS, Value.of(1L))).getMessage());
            PluginException e = assertThrows(PluginException.class, () -> p.write(setpoint, Value.of(40000.0)));
            assertFalse(e instanceof SensorDisconnectedException);
            assertEquals("Modbus channel setpoint (int16) takes a whole number from -32768 to 32767, not 40000",
                    e.getMessage());
        }
    }

    @Test
    void theExampleMeterConfigurationOpens() throws Exception {
        Path example = Path.of("..", "..", "docs", "examples", "modbus-meter.pcml");
        List<ProtocolConfig> protocols = Pcml.read(Files.readString(example)).protocols();
        assertFalse(protocols.isEmpty());
        for (ProtocolConfig config : protocols) {
            assertEquals("modbus", config.type());
            assertFalse(config.channels().isEmpty(), config.name() + " has no channel");
            new ModbusPlugin().open(config, TestContext.on(config.endpoint())).close();
        }
    }
}
