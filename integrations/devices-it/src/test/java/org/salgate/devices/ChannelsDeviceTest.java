package org.salgate.devices;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.salgate.devices.DeviceAgent.channel;
import static org.salgate.devices.DeviceAgent.modbus;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.SalClient;
import org.salgate.model.Reading;
import org.salgate.model.Value;

/**
 * Every register of a PCML map of a real Modbus device (pymodbus) arrives through the agent jar with
 * its value scaled and its unit, read by the Java client and over REST; and a write lands on the
 * device (its log shows it) and reads back.
 */
@Tag("devices")
@Timeout(120)
class ChannelsDeviceTest {

    /** One channel of the map, what the device holds there as the agent serves it, and its unit. */
    record Expected(String name, String xml, double value, double tolerance, String unit) {
    }

    /** The map of the test device (modbus_server.py): each type, scale, offset, order and table. */
    static final List<Expected> MAP = List.of(
            new Expected("u16", channel("u16", "unit=\"Cel\" scale=\"0.1\"", "table", "holding", "address", "0",
                    "type", "uint16"), 123.4, 1e-9, "Cel"),
            new Expected("i16", channel("i16", "unit=\"W\"", "table", "holding", "address", "1", "type", "int16"),
                    -2, 0, "W"),
            new Expected("i32", channel("i32", "unit=\"kW.h\" scale=\"0.001\"", "table", "holding", "address", "2",
                    "type", "int32"), -123.456, 1e-9, "kW.h"),
            new Expected("u32", channel("u32", "unit=\"W.h\"", "table", "holding", "address", "4", "type", "uint32"),
                    4_000_000_000.0, 0, "W.h"),
            new Expected("f32", channel("f32", "unit=\"V\"", "table", "holding", "address", "6", "type", "float32"),
                    230.5, 0, "V"),
            new Expected("i64", channel("i64", "unit=\"1\"", "table", "holding", "address", "8", "type", "int64"),
                    (double) 0x0102030405060708L, 0, "1"),
            new Expected("f64", channel("f64", "unit=\"m3\" offset=\"0.125\"", "table", "holding", "address", "12",
                    "type", "float64"), 1234568.0, 0, "m3"),
            new Expected("f32-little", channel("f32-little", "unit=\"V\"", "table", "holding", "address", "16",
                    "type", "float32", "word-order", "little"), 230.5, 0, "V"),
            new Expected("i32-little", channel("i32-little", "", "table", "holding", "address", "18", "type",
                    "int32", "word-order", "little"), -123456, 0, ""),
            new Expected("bit0", channel("bit0", "", "table", "holding", "address", "20", "type", "bool", "bit", "0"),
                    1, 0, ""),
            new Expected("bit1", channel("bit1", "", "table", "holding", "address", "20", "type", "bool", "bit", "1"),
                    0, 0, ""),
            new Expected("bit15", channel("bit15", "", "table", "holding", "address", "20", "type", "bool", "bit",
                    "15"), 1, 0, ""),
            new Expected("voltage", channel("voltage", "unit=\"V\" scale=\"0.1\"", "table", "input", "address", "0"),
                    230.1, 1e-9, "V"),
            new Expected("frequency", channel("frequency", "unit=\"Hz\"", "table", "input", "address", "1", "type",
                    "float32"), 49.95, 1e-5, "Hz"),
            new Expected("coil0", channel("coil0", "", "table", "coil", "address", "0"), 1, 0, ""),
            new Expected("coil1", channel("coil1", "", "table", "coil", "address", "1"), 0, 0, ""),
            new Expected("input1", channel("input1", "", "table", "discrete-input", "address", "1"), 1, 0, ""));

    /** Channels the tests write: holding registers 30-39 of the device start at 0. */
    static final String[] WRITABLE = {
        channel("setpoint", "unit=\"Cel\" scale=\"0.5\" access=\"read-write\" min=\"5\" max=\"30\"", "table", "holding",
                "address", "30", "type", "int16"),
        channel("limit", "unit=\"A\" access=\"read-write\"", "table", "holding", "address", "32", "type", "float32"),
        channel("raw", "access=\"read-write\"", "table", "holding", "address", "34", "type", "uint32"),
        // the two registers of raw, as text
        channel("label", "", "table", "holding", "address", "34", "type", "string", "length", "2"),
        channel("relay", "access=\"read-write\"", "table", "coil", "address", "10"),
    };

    private static String meter(PymodbusServer device) {
        List<String> all = new ArrayList<>(MAP.stream().map(Expected::xml).toList());
        all.addAll(List.of(WRITABLE));
        return modbus("meter", device.endpoint(), List.of("timeout-ms", "1000"), all.toArray(String[]::new));
    }

    private static double number(Reading r) {
        assertEquals(Reading.Status.OK, r.status(), r.toString());
        if (r.value() instanceof Value.Num n) {
            return n.value();
        }
        if (r.value() instanceof Value.Int i) {
            return i.value();
        }
        throw new AssertionError("not a number: " + r);
    }

    @Test
    void everyChannelArrivesWithItsValueScaleAndUnitThroughTheClient() throws Exception {
        try (PymodbusServer device = PymodbusServer.start();
             DeviceAgent agent = DeviceAgent.start("netty", "127.0.0.1:" + device.port(), meter(device));
             SalClient client = agent.client()) {
            for (Expected e : MAP) {
                String id = "meter." + e.name();
                Reading r = client.execute(id, "read", Map.of()).get(20, TimeUnit.SECONDS);
                assertEquals(id, r.sensorId());
                assertEquals(e.value(), number(r), e.tolerance(), id);
                assertEquals(e.unit(), client.describeSensor(id).get(20, TimeUnit.SECONDS).outputs().get(0).unit(), id);
            }
        }
    }

    @Test
    void everyChannelArrivesWithItsValueScaleAndUnitOverRest() throws Exception {
        try (PymodbusServer device = PymodbusServer.start();
             DeviceAgent agent = DeviceAgent.start("http", "127.0.0.1:" + device.port(), meter(device))) {
            for (Expected e : MAP) {
                String id = "meter." + e.name();
                DeviceAgent.Answer read = agent.post("/api/sensors/" + id + "/commands/read", "application/json", "{}");
                assertEquals(200, read.status(), read.body());
                JsonNode json = read.json();
                assertEquals(id, json.get("sensor").asText());
                assertEquals("OK", json.get("status").asText(), read.body());
                assertEquals(e.value(), json.get("value").asDouble(), e.tolerance(), id);
                DeviceAgent.Answer description = agent.get("/api/sensors/" + id, "application/xml");
                assertEquals(200, description.status(), description.body());
                if (!e.unit().isEmpty()) {
                    assertTrue(description.body().contains("code=\"" + e.unit() + "\""), id + ": " + description.body());
                }
            }
        }
    }

    @Test
    void aWriteLandsOnTheDeviceAndReadsBackThroughTheClient() throws Exception {
        try (PymodbusServer device = PymodbusServer.start();
             DeviceAgent agent = DeviceAgent.start("netty", "127.0.0.1:" + device.port(), meter(device));
             SalClient client = agent.client()) {
            // 21.5 Cel at scale 0.5 is raw 43, written with function 6 (one register)
            Reading w = client.execute("meter.setpoint", "write", Map.of("value", "21.5")).get(20, TimeUnit.SECONDS);
            assertEquals(Reading.Status.OK, w.status(), w.toString());
            assertTrue(device.printed("set 6 30 43"), device.lines().toString());
            assertEquals(21.5, number(client.execute("meter.setpoint", "read", Map.of()).get(20, TimeUnit.SECONDS)));
            // 12.25 A as float32 is 0x41440000, two registers written with function 16
            client.execute("meter.limit", "write", Map.of("value", "12.25")).get(20, TimeUnit.SECONDS);
            assertTrue(device.printed("set 16 32 16708,0"), device.lines().toString());
            assertEquals(12.25, number(client.execute("meter.limit", "read", Map.of()).get(20, TimeUnit.SECONDS)));
            // "ABCD" is 0x41424344: the string channel over the same two registers reads it as text
            client.execute("meter.raw", "write", Map.of("value", "1094861636")).get(20, TimeUnit.SECONDS);
            assertTrue(device.printed("set 16 34 16706,17220"), device.lines().toString());
            Reading label = client.execute("meter.label", "read", Map.of()).get(20, TimeUnit.SECONDS);
            assertEquals(Value.of("ABCD"), label.value(), label.toString());
            // a coil, function 5
            client.execute("meter.relay", "write", Map.of("value", "1")).get(20, TimeUnit.SECONDS);
            assertTrue(device.printed("set 5 10 1"), device.lines().toString());
            assertEquals(1.0, number(client.execute("meter.relay", "read", Map.of()).get(20, TimeUnit.SECONDS)));
        }
    }

    @Test
    void aWriteLandsOnTheDeviceAndReadsBackOverRest() throws Exception {
        try (PymodbusServer device = PymodbusServer.start();
             DeviceAgent agent = DeviceAgent.start("http", "127.0.0.1:" + device.port(), meter(device))) {
            DeviceAgent.Answer w = agent.post("/api/sensors/meter.setpoint/commands/write", "application/json",
                    "{\"value\": 27}");
            assertEquals(200, w.status(), w.body());
            assertTrue(device.printed("set 6 30 54"), device.lines().toString());
            DeviceAgent.Answer r = agent.post("/api/sensors/meter.setpoint/commands/read", "application/json", "{}");
            assertEquals(27.0, r.json().get("value").asDouble(), r.body());
            // above max 30: refused by the agent, the device never asked
            DeviceAgent.Answer high = agent.post("/api/sensors/meter.setpoint/commands/write", "application/json",
                    "{\"value\": 31}");
            assertEquals(400, high.status(), high.body());
            assertTrue(device.lines().stream().noneMatch(l -> l.startsWith("set 6 30 62")), device.lines().toString());
        }
    }
}
