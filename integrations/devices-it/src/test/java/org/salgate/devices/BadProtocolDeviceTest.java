package org.salgate.devices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.salgate.devices.DeviceAgent.channel;
import static org.salgate.devices.DeviceAgent.modbus;
import static org.salgate.devices.DeviceAgent.platform;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.SalClient;
import org.salgate.client.SalException;
import org.salgate.model.Reading;

/**
 * Protocols a user gets wrong, added to a running agent jar (the client's addProtocol, and POST
 * /api/protocols): each is refused with a message naming what is wrong, and the agent keeps serving
 * the device it had.
 */
@Tag("devices")
@Timeout(120)
class BadProtocolDeviceTest {

    /** A wrong protocol and a piece of the message that must say what is wrong. */
    record Bad(String what, String pcml, String message) {
    }

    private static List<Bad> bad(int devicePort) {
        String endpoint = "tcp:127.0.0.1:" + devicePort;
        return List.of(
                new Bad("two writable channels on one register", modbus("overlap", endpoint, List.of(),
                        channel("setpoint", "access=\"read-write\"", "table", "holding", "address", "30", "type",
                                "float32"),
                        channel("low", "access=\"read-write\"", "table", "holding", "address", "31")),
                        "Modbus channels setpoint and low are both writable and share holding address 31"),
                new Bad("an address past the last", modbus("far", endpoint, List.of(),
                        channel("far", "", "table", "holding", "address", "65535", "type", "float32")),
                        "Modbus channel far: type float32 takes 2 registers from address 65535: past the last address"),
                new Bad("an address out of range", modbus("huge", endpoint, List.of(),
                        channel("huge", "", "table", "holding", "address", "70000")),
                        "Modbus channel huge: address '70000' is not a whole number from 0 to 65535"),
                new Bad("an unknown data type", modbus("half", endpoint, List.of(),
                        channel("half", "", "table", "holding", "address", "0", "type", "float16")),
                        "Modbus channel half: type 'float16' is not one of bool, int16, uint16"),
                new Bad("a serial port that does not exist", modbus("line", "serial:/dev/ttySALGATE9", List.of(),
                        channel("v", "", "table", "input", "address", "0")),
                        "serial port /dev/ttySALGATE9 does not exist on this machine"),
                new Bad("a host not allowed", modbus("elsewhere", "tcp:192.0.2.10:502", List.of(),
                        channel("v", "", "table", "input", "address", "0")),
                        "endpoint 'tcp:192.0.2.10:502' is not an allowed device"));
    }

    private static String meter(PymodbusServer device) {
        return modbus("meter", device.endpoint(), List.of(), channel("voltage", "unit=\"V\" scale=\"0.1\"", "table",
                "input", "address", "0"));
    }

    /** The device the agent had still answers, by the client. */
    private static void stillServes(SalClient client) throws Exception {
        Reading r = client.execute("meter.voltage", "read", Map.of()).get(20, TimeUnit.SECONDS);
        assertEquals(Reading.Status.OK, r.status(), r.toString());
    }

    @Test
    void aWrongProtocolAddedByTheClientIsRefusedNamingWhatIsWrong() throws Exception {
        try (PymodbusServer device = PymodbusServer.start();
             DeviceAgent agent = DeviceAgent.start("netty", "127.0.0.1:" + device.port() + ",/dev/ttySALGATE*",
                     meter(device));
             SalClient client = agent.client()) {
            for (Bad b : bad(device.port())) {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> client.addProtocol(platform(b.pcml())).get(20, TimeUnit.SECONDS), b.what());
                assertTrue(e.getCause() instanceof SalException, b.what() + ": " + e.getCause());
                System.out.println(b.what() + ": " + e.getCause().getMessage());
                assertTrue(e.getCause().getMessage().contains(b.message()), b.what() + ": " + e.getCause().getMessage());
                stillServes(client);
            }
            assertEquals(List.of("meter"), client.listProtocols().get(20, TimeUnit.SECONDS).stream()
                    .map(p -> p.name()).toList());
            assertTrue(client.listSensors().get(20, TimeUnit.SECONDS).stream().allMatch(s -> s.id().startsWith("meter.")));
        }
    }

    @Test
    void aWrongProtocolPostedOverRestIsRefusedNamingWhatIsWrong() throws Exception {
        try (PymodbusServer device = PymodbusServer.start();
             DeviceAgent agent = DeviceAgent.start("http", "127.0.0.1:" + device.port() + ",/dev/ttySALGATE*",
                     meter(device))) {
            for (Bad b : bad(device.port())) {
                DeviceAgent.Answer a = agent.post("/api/protocols", "application/xml", platform(b.pcml()));
                System.out.println(b.what() + ": " + a.status() + " " + a.body());
                // a refusal by the agent (400) or by the plugin when it opens the protocol (502, PLUGIN_FAILURE)
                assertTrue(a.status() == 400 || a.status() == 502, b.what() + ": " + a.status() + " " + a.body());
                assertTrue(a.json().get("message").asText().contains(b.message()), b.what() + ": " + a.body());
                DeviceAgent.Answer r = agent.post("/api/sensors/meter.voltage/commands/read", "application/json", "{}");
                assertEquals("OK", r.json().get("status").asText(), r.body());
            }
        }
    }
}
