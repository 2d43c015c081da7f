package org.salgate.plugin.modbus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.salgate.plugin.modbus.Channels.read;
import static org.salgate.plugin.modbus.Channels.readWrite;
import static org.salgate.plugin.modbus.Channels.reads;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

/** The driver against a real Modbus TCP device (pymodbus; profile devices). */
@Tag("devices")
class ModbusTcpDeviceTest {

    private static final List<ChannelConfig> EVERY_TYPE = List.of(
            read("uint16", "table", "holding", "address", "0", "type", "uint16"),
            read("int16", "table", "holding", "address", "1", "type", "int16"),
            read("int32", "table", "holding", "address", "2", "type", "int32"),
            read("uint32", "table", "holding", "address", "4", "type", "uint32"),
            read("float32", "table", "holding", "address", "6", "type", "float32"),
            read("int64", "table", "holding", "address", "8", "type", "int64"),
            read("float64", "table", "holding", "address", "12", "type", "float64"),
            read("float32-little", "table", "holding", "address", "16", "type", "float32", "word-order", "little"),
            read("int32-little", "table", "holding", "address", "18", "type", "int32", "word-order", "little"),
            read("bit0", "table", "holding", "address", "20", "type", "bool", "bit", "0"),
            read("bit1", "table", "holding", "address", "20", "type", "bool", "bit", "1"),
            read("bit15", "table", "holding", "address", "20", "type", "bool", "bit", "15"),
            read("voltage", "table", "input", "address", "0"),
            read("frequency", "table", "input", "address", "1", "type", "float32"),
            read("coil0", "table", "coil", "address", "0"),
            read("coil1", "table", "coil", "address", "1"),
            read("coil2", "table", "coil", "address", "2"),
            read("di0", "table", "discrete-input", "address", "0"),
            read("di1", "table", "discrete-input", "address", "1"));

    private int port;
    private PymodbusDevice device;

    @BeforeEach
    void start() throws Exception {
        port = PymodbusDevice.freePort();
        device = PymodbusDevice.tcp(port);
    }

    @AfterEach
    void stop() throws Exception {
        device.close();
    }

    private SensorProtocol open(List<ChannelConfig> channels, Map<String, String> parameters) throws Exception {
        ProtocolConfig config = new ProtocolConfig("meter", "modbus", "tcp:127.0.0.1:" + port, parameters,
                List.of(), List.of(), channels);
        SensorProtocol protocol = new ModbusPlugin().open(config, TestContext.on("tcp:127.0.0.1:" + port));
        protocol.connect();
        return protocol;
    }

    private static List<Value> values(List<ChannelValue> read) {
        for (ChannelValue v : read) {
            assertTrue(v.ok(), v.error());
        }
        return read.stream().map(ChannelValue::value).toList();
    }

    @Test
    void everyTypeIsReadAndDecodedInOneRequestPerTable() throws Exception {
        try (SensorProtocol meter = open(EVERY_TYPE, Map.of())) {
            List<Value> values = values(meter.read(reads(EVERY_TYPE)));
            assertEquals(List.of(Value.of(1234L), Value.of(-2L), Value.of(-123456L), Value.of(4000000000L),
                    Value.of(230.5), Value.of(0x0102030405060708L), Value.of(1234567.875), Value.of(230.5),
                    Value.of(-123456L), Value.of(1L), Value.of(0L), Value.of(1L),
                    Value.of(2301L), Value.of(49.95), // a float32 reads as its shortest decimal
                    Value.of(1L), Value.of(0L), Value.of(1L), Value.of(0L), Value.of(1L)), values);
            // function codes 1 coils, 2 discrete inputs, 3 holding registers, 4 input registers
            assertEquals(List.of("1 0 3", "2 0 2", "4 0 3", "3 0 21"), device.takeRequests(4));
        }
    }

    @Test
    void maxRegistersAndMaxGapShapeTheRequests() throws Exception {
        List<ChannelConfig> channels = List.of(
                read("a", "table", "holding", "address", "0", "type", "float64"),
                read("b", "table", "holding", "address", "6", "type", "float32"),
                read("c", "table", "holding", "address", "12", "type", "float64"));
        try (SensorProtocol meter = open(channels, Map.of("max-registers", "8", "max-gap", "2"))) {
            assertEquals(List.of(Value.of(decodeFirstFloat64()), Value.of(230.5), Value.of(1234567.875)),
                    values(meter.read(reads(channels))));
            assertEquals(List.of("3 0 8", "3 12 4"), device.takeRequests(2));
        }
    }

    /** Registers 0-3 read as one float64: 1234, 0xFFFE, then int32 -123456. */
    private static double decodeFirstFloat64() {
        return java.nio.ByteBuffer.allocate(8).putShort((short) 1234).putShort((short) 0xFFFE)
                .putInt(-123456).flip().getDouble();
    }

    @Test
    void aRefusedRequestFailsOnlyItsOwnChannels() throws Exception {
        List<ChannelConfig> channels = List.of(
                read("first", "table", "holding", "address", "0"),
                read("missing", "table", "holding", "address", "150"),
                read("also-missing", "table", "holding", "address", "152"),
                read("far", "table", "holding", "address", "205"),
                read("volts", "table", "input", "address", "0"));
        try (SensorProtocol meter = open(channels, Map.of())) {
            List<ChannelValue> read = meter.read(reads(channels));
            assertEquals(Value.of(1234L), read.get(0).value());
            assertFalse(read.get(1).ok());
            assertEquals("illegal data address (holding 150 to 152)", read.get(1).error());
            assertEquals(read.get(1).error(), read.get(2).error());
            assertEquals(Value.absent(), read.get(2).value());
            assertEquals(Value.of(205L), read.get(3).value());
            assertEquals(Value.of(2301L), read.get(4).value());
            assertEquals(List.of("4 0 1", "3 0 1", "3 150 3", "3 205 1"), device.takeRequests(4));
            // the connection is still good
            assertEquals(Value.of(1234L), meter.read(reads(channels.subList(0, 1))).get(0).value());
        }
    }

    @Test
    void channelsOfOtherUnitsAreAskedOfTheirUnitAndAUnitTheGatewayLacksFailsOnlyItsChannels() throws Exception {
        List<ChannelConfig> channels = List.of(
                read("unit1", "table", "holding", "address", "0"),
                read("unit2", "table", "holding", "address", "0", "unit-id", "2"),
                read("unit3", "table", "holding", "address", "0", "unit-id", "3"));
        try (SensorProtocol bus = open(channels, Map.of())) {
            List<ChannelValue> read = bus.read(reads(channels));
            assertEquals(Value.of(1234L), read.get(0).value());
            assertEquals(Value.of(4321L), read.get(1).value());
            assertEquals("gateway target device failed to respond (holding 0 to 0 of unit 3)", read.get(2).error());
        }
    }

    @Test
    void writesUseTheirFunctionCodeAndAreReadBack() throws Exception {
        List<ChannelConfig> channels = List.of(
                readWrite("relay", "table", "coil", "address", "10"),
                readWrite("setpoint", "table", "holding", "address", "30", "type", "int16"),
                readWrite("limit", "table", "holding", "address", "32", "type", "float32"),
                readWrite("limit-little", "table", "holding", "address", "34", "type", "float32",
                        "word-order", "little"));
        try (SensorProtocol meter = open(channels, Map.of())) {
            meter.write(channels.get(0), Value.of(1L));
            meter.write(channels.get(1), Value.of(-42.0));
            meter.write(channels.get(2), Value.of(12.5));
            meter.write(channels.get(3), Value.of(12.5));
            // 12.5f is 0x41480000: 16712, 0
            assertEquals(List.of("request 5 10 1", "set 5 10 1", "request 6 30 1", "set 6 30 65494",
                    "request 16 32 2", "set 16 32 16712,0", "request 16 34 2", "set 16 34 0,16712"), device.lines(8));
            assertEquals(List.of(Value.of(1L), Value.of(-42L), Value.of(12.5), Value.of(12.5)),
                    values(meter.read(reads(channels))));
        }
    }

    @Test
    void aRefusedWriteSaysWhatTheDeviceAnswered() throws Exception {
        ChannelConfig nowhere = readWrite("nowhere", "table", "holding", "address", "100");
        try (SensorProtocol meter = open(List.of(nowhere), Map.of())) {
            Exception e = assertThrows(Exception.class, () -> meter.write(nowhere, Value.of(1L)));
            assertFalse(e instanceof SensorDisconnectedException);
            assertTrue(e.getMessage().endsWith("refused the write of channel nowhere: illegal data address"),
                    e.getMessage());
        }
    }

    @Test
    void aStoppedDeviceDisconnectsAndIsReachedAgainOnceItIsBack() throws Exception {
        List<ChannelConfig> channels = EVERY_TYPE.subList(0, 1);
        try (SensorProtocol meter = open(channels, Map.of("timeout-ms", "500"))) {
            assertEquals(Value.of(1234L), meter.read(reads(channels)).get(0).value());
            device.close();
            assertThrows(SensorDisconnectedException.class, () -> meter.read(reads(channels)));
            meter.disconnect();
            SensorDisconnectedException refused = assertThrows(SensorDisconnectedException.class, meter::connect);
            assertTrue(refused.getMessage().startsWith("cannot reach Modbus device tcp:127.0.0.1:" + port),
                    refused.getMessage());
            device = PymodbusDevice.tcp(port);
            meter.connect();
            assertEquals(Value.of(1234L), meter.read(reads(channels)).get(0).value());
        }
    }

    @Test
    void theValuesAgreeWithMbpoll() throws Exception {
        // mbpoll -0: PDU addresses; -B: the most significant word first; -t 4:float reads float32
        Process p = new ProcessBuilder("mbpoll", "-m", "tcp", "-p", Integer.toString(port), "-a", "1", "-0",
                "-r", "6", "-t", "4:float", "-B", "-1", "127.0.0.1").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertTrue(out.contains("[6]: \t230.5"), out);
        List<ChannelConfig> channels = List.of(EVERY_TYPE.get(4));
        try (SensorProtocol meter = open(channels, Map.of())) {
            assertEquals(Value.of(230.5), meter.read(reads(channels)).get(0).value());
        }
    }
}
