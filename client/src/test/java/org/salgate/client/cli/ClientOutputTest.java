package org.salgate.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.inmemory.FakeAgent;
import org.salgate.client.inmemory.InMemoryTransport;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.model.Call;
import org.salgate.model.Event;
import org.salgate.model.Result;

/** --output json and csv, the environment variables, and the usage messages said plainly. */
@Timeout(30)
class ClientOutputTest extends CliFixture {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws IOException {
        return JSON.readTree(text);
    }

    private void commandsWithUnit(String unit) {
        String cml = Cml.write(List.of(CommandDescription.builder("read").response("decimal", unit)
                .streaming(new SamplingBounds(0, 1000)).build()));
        agent.answer(Call.ListCommands.class, c -> new Result.Document(cml));
    }

    // ---- json

    @Test
    void listAsJsonIsOneArrayOfSensors() throws IOException {
        Run r = run("list", "--output", "json");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        JsonNode all = json(r.out());
        assertTrue(all.isArray(), r.out());
        assertEquals(3, all.size());
        assertEquals("DUMMY_1", all.get(1).get("id").asText());
        assertEquals("STREAMING", all.get(1).get("state").asText());
        assertEquals("dummy", all.get(1).get("protocol").asText());
    }

    @Test
    void outputGivenBeforeTheCommandAppliesToIt() throws IOException {
        Run r = run("--output", "json", "list");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals(3, json(r.out()).size());
        Run own = run("--output", "json", "list", "--output", "csv");
        assertTrue(own.out().startsWith("id,protocol,state,description\n"), own.out());
    }

    @Test
    void readAsJsonKeepsTheNumberAndGivesTheUnitApart() throws IOException {
        agent.unit("Cel");
        Run r = run("read", "DUMMY_0", "-o", "json");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        JsonNode reading = json(r.out());
        assertTrue(reading.get("value").isNumber(), r.out());
        assertEquals(42.5, reading.get("value").asDouble());
        assertEquals("Cel", reading.get("unit").asText());
        assertEquals("OK", reading.get("status").asText());
        assertEquals("DUMMY_0", reading.get("sensor").asText());
    }

    @Test
    void readAsJsonAndCsvGiveTheDevicesTimeWhenItStampedTheValue() throws IOException {
        long deviceTime = FakeAgent.TIMESTAMP_MICROS - 1_500_000;
        agent.answer(Call.Execute.class, c -> new Result.ReadingResult(FakeAgent.reading("DUMMY_0", 0).withUnit("V")
                .withDeviceTime(deviceTime)));
        String expected = ReadingFormat.timestamp(deviceTime);
        JsonNode reading = json(run("read", "DUMMY_0", "-o", "json").out());
        assertEquals(expected, reading.get("deviceTime").asText());
        assertEquals("V", reading.get("unit").asText());
        List<String> csv = run("read", "DUMMY_0", "-o", "csv").out().lines().toList();
        assertEquals("sensor,value,unit,bytes,status,error,timestamp,deviceTime", csv.get(0));
        assertTrue(csv.get(1).startsWith("DUMMY_0,42.5,V,,OK,,") && csv.get(1).endsWith(",\"" + expected + "\""), csv.get(1));
        agent.answer(Call.Execute.class, c -> new Result.ReadingResult(FakeAgent.reading("DUMMY_0", 0)));
        assertTrue(json(run("read", "DUMMY_0", "-o", "json").out()).get("deviceTime").isNull());
    }

    @Test
    void aDisconnectedReadAsJsonSaysSoAndExitsOne() throws IOException {
        Run r = run("read", "DUMMY_0", "--command", "unplugged", "-o", "json");
        assertEquals(ExitCodes.FAILED, r.code(), r.err());
        JsonNode reading = json(r.out());
        assertEquals("DISCONNECTED", reading.get("status").asText());
        assertTrue(reading.get("error").asText().contains("next attempt"), r.out());
    }

    @Test
    void readOfBytesAsJsonGivesTheSizeNotAValue() throws IOException {
        Run r = run("read", "DUMMY_0", "--command", "payload", "--arg", "size=1000", "--output", "json");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        JsonNode reading = json(r.out());
        assertTrue(reading.get("value").isNull(), r.out());
        assertEquals(1000, reading.get("bytes").asInt());
    }

    @Test
    void streamAsJsonPrintsOneObjectPerLine() throws IOException {
        agent.framesOnStart(10);
        Run r = run("stream", "DUMMY_0", "--count", "3", "--interval", "5", "--output", "json");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        for (int i = 0; i < 3; i++) {
            JsonNode reading = json(lines.get(i));
            assertEquals(i, reading.get("sequence").asInt());
            assertEquals(42.5, reading.get("value").asDouble());
        }
    }

    @Test
    void eventsAsJsonPrintOneObjectPerLine() throws IOException {
        agent.eventsOnSubscribe(List.of(
                new Event(Event.Type.SENSOR_ADDED, "NEW_0", null, FakeAgent.TIMESTAMP_MICROS, "from PCML"),
                new Event(Event.Type.SENSOR_REMOVED, "NEW_0", null, FakeAgent.TIMESTAMP_MICROS, "")));
        Run r = run("events", "--count", "2", "--output", "json");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(2, lines.size(), r.out());
        assertEquals("SENSOR_ADDED", json(lines.get(0)).get("type").asText());
        assertEquals("from PCML", json(lines.get(0)).get("detail").asText());
        assertEquals("SENSOR_REMOVED", json(lines.get(1)).get("type").asText());
    }

    @Test
    void describeCommandsAndProtocolsAsJsonAreDocuments() throws IOException {
        JsonNode described = json(run("describe", "DUMMY_0", "--output", "json").out());
        assertEquals(FakeAgent.SENSOR_ML, described.get("sensorML").asText());
        commandsWithUnit("1");
        JsonNode commands = json(run("commands", "DUMMY_0", "--output", "json").out());
        assertEquals("read", commands.get(0).get("id").asText());
        assertEquals("1", commands.get(0).get("responseUnit").asText());
        assertEquals(1000, commands.get(0).get("maxIntervalMs").asInt());
        JsonNode protocols = json(run("protocols", "--output", "json").out());
        assertEquals(2, protocols.size());
        assertEquals(2, protocols.get(0).get("sensors").asInt());
    }

    // ---- csv and table

    @Test
    void listAsCsvHasAHeaderAndOneLinePerSensor() {
        Run r = run("list", "--output", "csv");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(4, lines.size(), r.out());
        assertEquals("id,protocol,state,description", lines.get(0));
        assertEquals("DUMMY_1,dummy,STREAMING,\"dummy sensor 1\"", lines.get(2));
    }

    @Test
    void streamAsCsvGivesTheUnitItsOwnColumn() {
        agent.unit("1");
        agent.framesOnStart(10);
        Run r = run("stream", "DUMMY_0", "--count", "2", "--interval", "5", "--output", "csv");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("sensor,sequence,value,unit,bytes,status,error,timestamp,deviceTime", lines.get(0));
        assertTrue(lines.get(1).startsWith("DUMMY_0,0,42.5,1,,OK,,"), lines.get(1));
        assertEquals(3, lines.size(), r.out());
    }

    @Test
    void aValueWithAUnitReadsAsOneNumberInTheTable() {
        agent.unit("1");
        Run r = run("read", "DUMMY_0");
        assertTrue(r.out().startsWith("DUMMY_0  42.5 [1]  OK  "), r.out());
    }

    // ---- environment

    @Test
    void environmentVariablesGiveTheConnectionDefaults() {
        Run r = runWith(Map.of("SALGATE_TRANSPORT", InMemoryTransport.NAME, "SALGATE_PORT",
                Integer.toString(agent.port()), "SALGATE_HOST", "127.0.0.1"), "list");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertTrue(r.out().endsWith("3 sensors\n"), r.out());
    }

    @Test
    void anOptionOnTheCommandLineWinsOverItsVariable() {
        Run r = runWith(Map.of("SALGATE_TRANSPORT", InMemoryTransport.NAME, "SALGATE_PORT", "1"),
                "--port", Integer.toString(agent.port()), "list");
        assertEquals(ExitCodes.OK, r.code(), r.err());
    }

    @Test
    void aCodecFromTheEnvironmentReachesTheConnection() {
        Run r = runWith(Map.of("SALGATE_TRANSPORT", InMemoryTransport.NAME, "SALGATE_PORT",
                Integer.toString(agent.port()), "SALGATE_CODEC", "nope"), "list");
        assertEquals(ExitCodes.USAGE, r.code(), r.out());
        assertTrue(r.err().contains("nope"), r.err());
    }

    @Test
    void aPortFromTheEnvironmentThatIsNotOneIsReportedAsTheVariables() {
        Run r = runWith(Map.of("SALGATE_TRANSPORT", InMemoryTransport.NAME, "SALGATE_PORT", "abc"), "list");
        assertEquals(ExitCodes.USAGE, r.code(), r.out());
        assertTrue(r.err().startsWith("invalid SALGATE_PORT 'abc': not a port number (1-65535)\n"), r.err());
        assertFalse(r.err().contains("--port"), r.err());
        Run zero = runWith(Map.of("SALGATE_TRANSPORT", InMemoryTransport.NAME, "SALGATE_PORT", "0"), "list");
        assertTrue(zero.err().startsWith("invalid SALGATE_PORT '0': not a port number (1-65535)\n"), zero.err());
    }

    @Test
    void aPortOnTheCommandLineThatIsNotOneIsReportedAsTheOptions() {
        Run r = runWith(Map.of("SALGATE_PORT", "abc"), "--transport", InMemoryTransport.NAME, "--port", "70000",
                "list");
        assertEquals(ExitCodes.USAGE, r.code(), r.out());
        assertTrue(r.err().startsWith("--port: '70000' is not a port number (1-65535)\n"), r.err());
    }

    @Test
    void aTransportOrCodecFromTheEnvironmentThatIsUnknownIsReportedAsTheVariables() {
        Run transport = runWith(Map.of("SALGATE_TRANSPORT", "carrier-pigeon"), "list");
        assertEquals(ExitCodes.USAGE, transport.code(), transport.out());
        assertTrue(transport.err().startsWith("invalid SALGATE_TRANSPORT 'carrier-pigeon': not a transport here;"
                + " available: "), transport.err());
        assertTrue(transport.err().contains(InMemoryTransport.NAME), transport.err());
        Run codec = runWith(Map.of("SALGATE_TRANSPORT", InMemoryTransport.NAME, "SALGATE_PORT",
                Integer.toString(agent.port()), "SALGATE_CODEC", "morse"), "list");
        assertEquals(ExitCodes.USAGE, codec.code(), codec.out());
        assertTrue(codec.err().startsWith("invalid SALGATE_CODEC 'morse': not a codec here; available: "),
                codec.err());
    }

    @Test
    void theTokenComesFromTheEnvironmentGiven() {
        agent.refuseHello("no token");
        Run r = runWith(Map.of("SALGATE_TRANSPORT", InMemoryTransport.NAME, "SALGATE_PORT",
                Integer.toString(agent.port()), "SALGATE_TOKEN", "from-the-environment"), "list");
        assertEquals("from-the-environment", agent.lastHello().credentials());
        assertEquals(ExitCodes.CANNOT_CONNECT, r.code(), r.err());
    }

    @Test
    void helpNamesTheEnvironmentVariables() {
        Run r = runWith(Map.of(), "--help");
        for (String v : List.of("SALGATE_HOST", "SALGATE_PORT", "SALGATE_TRANSPORT", "SALGATE_CODEC")) {
            assertTrue(r.out().contains(v), v + " missing from: " + r.out());
        }
    }

    // ---- usage messages

    @Test
    void streamCountZeroIsRefused() {
        Run r = run("stream", "DUMMY_0", "--count", "0");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().startsWith("--count must be 1 or more, got 0"), r.err());
        Run events = run("events", "--count", "0");
        assertEquals(ExitCodes.USAGE, events.code());
    }

    @Test
    void anUnknownCommandIsCalledSo() {
        Run r = run("lst");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().startsWith("unknown command 'lst'; the commands are: list, describe"), r.err());
        assertFalse(r.err().contains("Unmatched argument"), r.err());
    }

    @Test
    void anArgumentWithoutNameAndValueSaysTheForm() {
        Run r = run("read", "DUMMY_0", "--arg", "size");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().startsWith("--arg takes name=value, such as --arg size=64; got 'size'"), r.err());
        assertFalse(r.err().contains("option option"), r.err());
    }

    @Test
    void anUnknownOptionIsCalledSo() {
        Run r = run("list", "--frobnicate");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().startsWith("unknown option '--frobnicate' for 'salgate-client list'"), r.err());
    }
}
