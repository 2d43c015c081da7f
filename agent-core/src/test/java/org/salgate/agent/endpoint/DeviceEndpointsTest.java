package org.salgate.agent.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.agent.plugin.PluginRegistry;
import org.salgate.agent.testing.DevicePlugin;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.EndpointType;
import org.salgate.plugin.spi.SensorPlugin;

/** The endpoint types plugins bring, and the devices the operator allows their endpoints to reach. */
class DeviceEndpointsTest {

    private static final DeviceTargets ALLOWED = DeviceTargets.of(List.of("10.0.0.5:502", "PLC.local:*",
            "[fd00::7]:5020", "/dev/ttyUSB*", "/dev/ttyS1"));

    private static Endpoints withPlugins(DeviceTargets targets) {
        Endpoints endpoints = Endpoints.standard(RelayTargets.none(), targets);
        PluginRegistry.load(DeviceEndpointsTest.class.getClassLoader(), endpoints).close();
        return endpoints;
    }

    @Test
    void theEndpointTypesOfLoadedPluginsAreRegisteredSharedWhenAlikeAndRefusedWhenTheyClash(@TempDir Path dir)
            throws Exception {
        Path services = dir.resolve("META-INF/services/" + SensorPlugin.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, DevicePlugin.Clashing.class.getName() + "\n");
        Endpoints endpoints = Endpoints.standard(RelayTargets.none(), ALLOWED);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
             PluginRegistry plugins = PluginRegistry.load(loader, endpoints)) {
            assertTrue(endpoints.types().containsAll(List.of("tcp", "serial")), endpoints.types().toString());
            assertTrue(plugins.find("device").isPresent());
            assertTrue(plugins.find("device2").isPresent(), "a second driver with tcp of the same syntax shares it");
            assertTrue(plugins.find("clash").isEmpty(), "a driver bringing tcp with another syntax is refused");
            assertFalse(endpoints.types().contains("tcp6"), "a refused plugin adds none of its types");
        }
    }

    @Test
    void aClashingTypeIsAClearErrorAndAddsNothing() {
        Endpoints endpoints = Endpoints.standard();
        endpoints.registerTypes(List.of(EndpointType.network("tcp", 502)));
        endpoints.registerTypes(List.of(EndpointType.network("tcp", 502))); // shared
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> endpoints.registerTypes(
                List.of(EndpointType.serial("rtu"), EndpointType.serial("tcp"))));
        assertTrue(e.getMessage().contains("'tcp'") && e.getMessage().contains("tcp:HOST:PORT"), e.getMessage());
        assertFalse(endpoints.types().contains("rtu"));
        IllegalArgumentException own = assertThrows(IllegalArgumentException.class,
                () -> endpoints.registerTypes(List.of(EndpointType.network("agent", 7431))));
        assertTrue(own.getMessage().contains("agent's own"), own.getMessage());
    }

    @Test
    void anUnknownTypeListsTheKnownOnesWithThoseOfThePlugins() {
        EndpointException e = assertThrows(EndpointException.class, () -> withPlugins(ALLOWED).parse("modbus:x"));
        assertTrue(e.getMessage().contains("os, serial, tcp, virtual"), e.getMessage());
    }

    @Test
    void anAllowedDeviceEndpointExposesItsTarget() throws Exception {
        Endpoints endpoints = withPlugins(ALLOWED);
        Endpoint tcp = endpoints.parse("tcp:10.0.0.5");
        assertEquals(new DeviceAddress.Network("10.0.0.5", 502), tcp.target().orElseThrow());
        assertEquals("tcp:10.0.0.5", tcp.spec());
        assertEquals(new DeviceAddress.Network("plc.LOCAL", 9999), endpoints.parse("tcp:plc.LOCAL:9999").target()
                .orElseThrow());
        assertEquals(new DeviceAddress.Network("fd00::7", 5020), endpoints.parse("tcp:[fd00::7]:5020").target()
                .orElseThrow());
        assertEquals(new DeviceAddress.LocalPort("/dev/ttyUSB3", Map.of("baud", "9600")),
                endpoints.parse("serial:/dev/ttyUSB3?baud=9600").target().orElseThrow());
        assertTrue(endpoints.parse("serial:/dev/ttyS1").target().isPresent());
        assertTrue(endpoints.parse("virtual").target().isEmpty(), "the agent's own endpoints reach no device");
    }

    @Test
    void everyDeviceNotAllowedIsRefusedWithTheSameMessageNamingTheOption() {
        Endpoints endpoints = withPlugins(ALLOWED);
        for (String spec : List.of("tcp:10.0.0.5:503", "tcp:10.0.0.6:502", "tcp:[fd00::8]:5020",
                "serial:/dev/ttyS0", "serial:/dev/ttyUSB0x/a", "serial:/dev/ttyS10")) {
            EndpointException e = assertThrows(EndpointException.class, () -> endpoints.parse(spec), spec);
            assertEquals("endpoint '" + spec + "' is not an allowed device: this agent reaches only the devices its "
                    + "operator gives with --device-allow (HOST:PORT, HOST:* or /dev/PATH)", e.getMessage());
        }
        EndpointException none = assertThrows(EndpointException.class,
                () -> withPlugins(DeviceTargets.none()).parse("tcp:10.0.0.5:502"));
        assertTrue(none.getMessage().contains("--device-allow"), none.getMessage());
    }

    @Test
    void aMalformedDeviceAddressIsAClearErrorOfTheType() {
        Endpoints endpoints = withPlugins(ALLOWED);
        EndpointException port = assertThrows(EndpointException.class, () -> endpoints.parse("tcp:10.0.0.5:70000"));
        assertTrue(port.getMessage().contains("1 to 65535"), port.getMessage());
        EndpointException empty = assertThrows(EndpointException.class, () -> endpoints.parse("tcp"));
        assertTrue(empty.getMessage().contains("tcp:HOST:PORT"), empty.getMessage());
    }

    @Test
    void deviceAllowEntriesThatAreNeitherHostPortNorADevicePathAreRefused() {
        for (String bad : List.of("10.0.0.5", "10.0.0.5:0", "host:port", "/tmp/x", "/dev/", "/dev/../etc/passwd",
                "fd00::1:502")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> DeviceTargets.of(List.of(bad)), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }
}
