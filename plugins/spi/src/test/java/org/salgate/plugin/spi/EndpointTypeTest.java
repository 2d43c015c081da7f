package org.salgate.plugin.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EndpointTypeTest {

    private final EndpointType tcp = EndpointType.network("tcp", 502);
    private final EndpointType serial = EndpointType.serial("serial");

    @Test
    void networkAddressGivesHostAndPortOrTheDefaultPort() {
        assertEquals(new DeviceAddress.Network("10.0.0.5", 5020), tcp.parse("10.0.0.5:5020"));
        assertEquals(new DeviceAddress.Network("meter.local", 502), tcp.parse("meter.local"));
        assertEquals(new DeviceAddress.Network("::1", 1502), tcp.parse("[::1]:1502"));
        assertEquals("[::1]:1502", tcp.parse("[::1]:1502").spec());
        assertEquals("meter.local:502", tcp.parse("meter.local").spec());
    }

    @Test
    void badNetworkAddressesAreRefusedSayingHowToWriteThem() {
        for (String bad : new String[] {"", ":502", "h:0", "h:65536", "h:port", "::1:502", "[::1", "[::1]x"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tcp.parse(bad), bad);
            assertTrue(e.getMessage().contains("tcp:"), e.getMessage());
        }
    }

    @Test
    void serialAddressGivesThePortAndItsSettings() {
        assertEquals(new DeviceAddress.LocalPort("/dev/ttyUSB0", Map.of("baud", "9600", "parity", "even")),
                serial.parse("/dev/ttyUSB0?baud=9600&parity=even"));
        assertEquals(new DeviceAddress.LocalPort("/dev/ttyS1", Map.of()), serial.parse("/dev/ttyS1"));
    }

    @Test
    void badSerialAddressesAreRefusedNamingTheSettings() {
        for (String bad : new String[] {"ttyUSB0", "/dev/", "/dev/../etc/passwd", "/dev/ttyS0?speed=9600",
                "/dev/ttyS0?baud", "/dev/ttyS0?baud=1&baud=2"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> serial.parse(bad), bad);
            assertTrue(e.getMessage().contains("serial:/dev/"), e.getMessage());
        }
    }

    @Test
    void typeNamesAreLowerCaseAndMayBeUrlSchemesWithADot() {
        assertThrows(IllegalArgumentException.class, () -> EndpointType.network("TCP", 502));
        assertThrows(IllegalArgumentException.class, () -> EndpointType.network("opc_tcp", 4840));
        assertEquals("opc.tcp", EndpointType.network("opc.tcp", 4840).name());
    }
}
