package org.salgate.plugin.modbus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.salgate.plugin.modbus.Channels.read;
import static org.salgate.plugin.modbus.Channels.readWrite;
import static org.salgate.plugin.modbus.Channels.reads;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

/** The protocol's retries, its pacing of requests, string channels and the channels it refuses, against {@link FakeTcpDevice}. */
class ModbusProtocolTest {

    private static final ChannelConfig FIRST = read("first", "table", "holding", "address", "0");

    private static ProtocolConfig config(String endpoint, Map<String, String> parameters, ChannelConfig... channels) {
        return new ProtocolConfig("meter", "modbus", endpoint, parameters, List.of(), List.of(), List.of(channels));
    }

    private static SensorProtocol open(String endpoint, Map<String, String> parameters, ChannelConfig... channels)
            throws Exception {
        SensorProtocol p = new ModbusPlugin().open(config(endpoint, parameters, channels), TestContext.on(endpoint));
        p.connect();
        return p;
    }

    @Test
    void aRequestLeftUnansweredIsSentAgainOnANewConnectionUpToRetries() throws Exception {
        try (FakeTcpDevice device = new FakeTcpDevice(rank -> rank == 0, 1234);
             SensorProtocol p = open(device.endpoint(), Map.of("timeout-ms", "300", "retries", "1"), FIRST)) {
            assertEquals(List.of(ChannelValue.of(Value.of(1234L))), p.read(reads(List.of(FIRST))));
            List<FakeTcpDevice.Received> received = device.received();
            assertEquals(2, received.size());
            assertEquals(1, received.get(0).connection());
            assertEquals(2, received.get(1).connection());
        }
    }

    @Test
    void withoutRetriesASilentDeviceIsLostAfterOneTry() throws Exception {
        try (FakeTcpDevice device = new FakeTcpDevice(rank -> rank == 0, 1234);
             SensorProtocol p = open(device.endpoint(), Map.of("timeout-ms", "300"), FIRST)) {
            assertThrows(SensorDisconnectedException.class, () -> p.read(reads(List.of(FIRST))));
            assertEquals(1, device.received().size());
        }
    }

    @Test
    void retriesEndAtTheirCountWhenTheDeviceStaysSilent() throws Exception {
        try (FakeTcpDevice device = new FakeTcpDevice(rank -> true);
             SensorProtocol p = open(device.endpoint(), Map.of("timeout-ms", "200", "retries", "2"), FIRST)) {
            long start = System.nanoTime();
            SensorDisconnectedException e = assertThrows(SensorDisconnectedException.class,
                    () -> p.read(reads(List.of(FIRST))));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(3, device.received().size());
            assertTrue(ms >= 540 && ms < 2000, ms + " ms");
            assertTrue(e.getMessage().contains("did not answer (timeout-ms 200)"), e.getMessage());
        }
    }

    @Test
    void aConnectionTheDeviceClosesIsNotRetried() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        try (ServerSocket closing = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        try (Socket s = closing.accept()) {
                            accepted.incrementAndGet();
                            s.getInputStream().read();
                        }
                    }
                } catch (Exception closed) {
                    // the test ended
                }
            });
            t.setDaemon(true);
            t.start();
            String endpoint = "tcp:127.0.0.1:" + closing.getLocalPort();
            try (SensorProtocol p = open(endpoint, Map.of("timeout-ms", "2000", "retries", "3"), FIRST)) {
                long start = System.nanoTime();
                assertThrows(SensorDisconnectedException.class, () -> p.read(reads(List.of(FIRST))));
                long ms = (System.nanoTime() - start) / 1_000_000;
                assertTrue(ms < 1500, ms + " ms");
                assertEquals(1, accepted.get());
            }
        }
    }

    @Test
    void requestsAreAtLeastMinIntervalMsApart() throws Exception {
        ChannelConfig[] apart = {FIRST, read("b", "table", "holding", "address", "10"),
                read("c", "table", "holding", "address", "20"), read("d", "table", "holding", "address", "30")};
        try (FakeTcpDevice device = new FakeTcpDevice(rank -> false);
             SensorProtocol p = open(device.endpoint(), Map.of("max-gap", "0", "min-interval-ms", "150"), apart)) {
            p.read(reads(List.of(apart)));
            p.read(reads(List.of(FIRST)));
            List<FakeTcpDevice.Received> received = device.received();
            assertEquals(5, received.size());
            for (int i = 1; i < received.size(); i++) {
                long gapMs = (received.get(i).nanos() - received.get(i - 1).nanos()) / 1_000_000;
                assertTrue(gapMs >= 145, "request " + i + " came " + gapMs + " ms after the previous one");
            }
        }
        try (FakeTcpDevice device = new FakeTcpDevice(rank -> false);
             SensorProtocol p = open(device.endpoint(), Map.of("max-gap", "0"), apart)) {
            p.read(reads(List.of(apart)));
            List<FakeTcpDevice.Received> received = device.received();
            long spanMs = (received.get(3).nanos() - received.get(0).nanos()) / 1_000_000;
            assertTrue(spanMs < 145, "without min-interval-ms, four requests took " + spanMs + " ms");
        }
    }

    @Test
    void aStringChannelReadsItsRegistersAsAsciiTrimmed() throws Exception {
        ChannelConfig model = read("model", "table", "holding", "address", "0", "type", "string", "length", "4");
        // "PM-3" "0" NUL, then a space
        try (FakeTcpDevice device = new FakeTcpDevice(rank -> false, 0x504D, 0x2D33, 0x3000, 0x2000);
             SensorProtocol p = open(device.endpoint(), Map.of(), model)) {
            assertEquals(List.of(ChannelValue.of(Value.of("PM-30"))), p.read(reads(List.of(model))));
            assertEquals(4, device.received().get(0).count(), "one request reads the string's four registers");
        }
    }

    @Test
    void twoWritableChannelsOnOneRegisterAreRefusedAtOpen() {
        PluginException e = assertThrows(PluginException.class, () -> new ModbusPlugin().open(
                config("tcp:127.0.0.1", Map.of(), readWrite("setpoint", "table", "holding", "address", "30", "type",
                        "float32"), readWrite("low", "table", "holding", "address", "31")), TestContext.on("tcp:127.0.0.1")));
        assertEquals("Modbus channels setpoint and low are both writable and share holding address 31 of unit 1: a"
                + " write to one would change the other; make one of them access read", e.getMessage());
    }

    @Test
    void overlappingChannelsAreAcceptedWhenAtMostOneIsWritable() throws Exception {
        new ModbusPlugin().open(config("tcp:127.0.0.1", Map.of(),
                readWrite("setpoint", "table", "holding", "address", "30", "type", "float32"),
                read("high", "table", "holding", "address", "30"), read("low", "table", "holding", "address", "31"),
                readWrite("other-unit", "table", "holding", "address", "30", "unit-id", "2"),
                readWrite("coil", "table", "coil", "address", "30")), TestContext.on("tcp:127.0.0.1")).close();
    }

    @Test
    void retriesAndMinIntervalMsAreBounded() {
        assertEquals("Modbus protocol meter: parameter retries '11' is not a whole number from 0 to 10",
                assertThrows(PluginException.class, () -> new ModbusPlugin().open(config("tcp:127.0.0.1",
                        Map.of("retries", "11"), FIRST), TestContext.on("tcp:127.0.0.1"))).getMessage());
        assertEquals("Modbus protocol meter: parameter min-interval-ms '-1' is not a whole number from 0 to 60000",
                assertThrows(PluginException.class, () -> new ModbusPlugin().open(config("tcp:127.0.0.1",
                        Map.of("min-interval-ms", "-1"), FIRST), TestContext.on("tcp:127.0.0.1"))).getMessage());
    }
}
