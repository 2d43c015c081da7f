package org.salgate.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.client.inmemory.FakeAgent;
import org.salgate.client.inmemory.InMemoryTransport;
import org.salgate.sensorml.Argument;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.model.Call;
import org.salgate.model.Event;
import org.salgate.model.Result;
import org.salgate.model.SensorState;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;

@Timeout(30)
class ClientMainTest extends CliFixture {

    private static final String TIMESTAMP =
            Instant.EPOCH.plus(FakeAgent.TIMESTAMP_MICROS, ChronoUnit.MICROS).toString();

    private static void assertOneLine(String text) {
        assertEquals(1, text.split("\n").length, "expected one line, got: " + text);
        assertTrue(text.endsWith("\n") && !text.contains("\tat "), text);
    }

    // ---- sensors

    @Test
    void listPrintsATableAndACount() {
        Run r = run("list");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        List<String> lines = r.outLines();
        assertEquals("ID          PROTOCOL  STATE      DESCRIPTION", lines.get(0));
        assertEquals("DUMMY_1     dummy     STREAMING  dummy sensor 1", lines.get(2));
        assertEquals("3 sensors", lines.get(lines.size() - 1));
        assertEquals("", r.err());
    }

    @Test
    void listActiveShowsOnlyStreamingSensors() throws Exception {
        Run r = run("list", "--active");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals(new Call.ListSensors(true), agent.nextCall());
        assertTrue(r.out().contains("DUMMY_1") && !r.out().contains("DUMMY_0"), r.out());
        assertTrue(r.out().endsWith("1 active sensor\n"), r.out());
    }

    @Test
    void connectionOptionsMayFollowTheSubcommand() {
        Run r = runRaw("list", "--transport", InMemoryTransport.NAME, "--port", Integer.toString(agent.port()));
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertTrue(r.out().endsWith("3 sensors\n"), r.out());
    }

    @Test
    void describePrintsTheSensorMl() {
        Run r = run("describe", "DUMMY_0");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals(FakeAgent.SENSOR_ML + "\n", r.out());
    }

    @Test
    void unknownSensorExitsOneWithOneClearLine() {
        Run r = run("describe", "FOO");
        assertEquals(ExitCodes.FAILED, r.code());
        assertEquals("unknown sensor 'FOO'; run 'list' to see the sensors\n", r.err());
        assertEquals("", r.out());
        Run read = run("read", "FOO");
        assertEquals(ExitCodes.FAILED, read.code());
        assertEquals("unknown sensor 'FOO'; run 'list' to see the sensors\n", read.err());
    }

    @Test
    void unknownCommandSaysHowToListCommands() {
        Run r = run("read", "DUMMY_0", "--command", "nope");
        assertEquals(ExitCodes.FAILED, r.code());
        assertEquals("sensor 'DUMMY_0' has no command 'nope'; run 'commands DUMMY_0' to see its commands\n", r.err());
    }

    @Test
    void addAndRemoveSensor(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sensor.xml");
        Files.writeString(file, "<sensor/>");
        Run added = run("add-sensor", file.toString());
        assertEquals(ExitCodes.OK, added.code(), added.err());
        assertEquals(new Call.AddSensor("<sensor/>"), agent.nextCall());
        assertEquals("added sensor NEW_0 (protocol dummy, IDLE)\n", added.out());
        Run removed = run("remove-sensor", "DUMMY_0");
        assertEquals(ExitCodes.OK, removed.code(), removed.err());
        assertEquals("removed sensor DUMMY_0\n", removed.out());
    }

    @Test
    void missingDocumentFileIsAUsageError(@TempDir Path dir) {
        Run r = run("add-sensor", dir.resolve("absent.xml").toString());
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().startsWith("cannot read the SensorML file '") && r.err().contains("no such file"), r.err());
    }

    // ---- commands and readings

    @Test
    void commandsXmlPrintsTheCml() {
        Run r = run("commands", "DUMMY_0", "--xml");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals(FakeAgent.CML + "\n", r.out());
    }

    @Test
    void commandsTableShowsArgumentsAndStreamBounds() {
        List<CommandDescription> commands = List.of(
                CommandDescription.builder("read").shortDescription("the value").response("decimal", "Cel")
                        .streaming(SamplingBounds.ANY).build(),
                CommandDescription.builder("payload").response("bytes", "")
                        .argument(new Argument("size", Argument.Type.INTEGER, 0.0, 16777216.0, "64", true, ""))
                        .build());
        StringWriter out = new StringWriter();
        CommandsCommand.print(commands, new PrintWriter(out));
        assertEquals("""
                COMMAND  ARGUMENTS                                         RESPONSE       STREAM          DESCRIPTION
                read     -                                                 decimal [Cel]  0..86400000 ms  the value
                payload  size (integer 0..16777216, default 64, optional)  bytes          no
                2 commands
                """, out.toString());
    }

    @Test
    void commandsParsesTheAgentsCml() {
        String cml = cml(CommandDescription.builder("read").response("decimal", "Cel")
                .streaming(new SamplingBounds(10, 1000)).build());
        agent.answer(Call.ListCommands.class, c -> new Result.Document(cml));
        Run r = run("commands", "DUMMY_0");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertTrue(r.out().contains("decimal [Cel]") && r.out().contains("10..1000 ms"), r.out());
    }

    @Test
    void readPrintsValueStatusAndIsoTimestamp() throws Exception {
        Run r = run("read", "DUMMY_0");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals("DUMMY_0  42.5  OK  " + TIMESTAMP + "\n", r.out());
        assertEquals(new Call.Execute("DUMMY_0", "read", Map.of()), agent.nextCall());
    }

    @Test
    void readShowsTheReadingsOwnUnit() {
        agent.unit("Cel");
        Run r = run("read", "DUMMY_0");
        assertEquals("DUMMY_0  42.5 [Cel]  OK  " + TIMESTAMP + "\n", r.out());
    }

    @Test
    void readShowsTheDevicesTimeAfterTheAgents() {
        agent.answer(Call.Execute.class, c -> new Result.ReadingResult(FakeAgent.reading("DUMMY_0", 0).withUnit("V")
                .withDeviceTime(1_000_000)));
        Run r = run("read", "DUMMY_0");
        assertEquals("DUMMY_0  42.5 [V]  OK  " + TIMESTAMP + "  device 1970-01-01T00:00:01Z\n", r.out());
    }

    @Test
    void readOfADisconnectedDeviceShowsTheStatusAndWhyAndExitsOne() {
        Run r = run("read", "DUMMY_0", "--command", "unplugged");
        assertEquals(ExitCodes.FAILED, r.code());
        assertEquals("DUMMY_0  -  DISCONNECTED: device is disconnected: no route; next attempt in 2.0 s  " + TIMESTAMP
                + "\n", r.out());
    }

    @Test
    void readOfBytesPrintsTheSizeAndPassesArguments() throws Exception {
        Run r = run("read", "DUMMY_0", "--command", "payload", "--arg", "size=1000");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals("DUMMY_0  <1000 bytes>  OK  " + TIMESTAMP + "\n", r.out());
    }

    @Test
    void readWithErrorStatusPrintsItAndExitsOne() {
        Run r = run("read", "DUMMY_0", "--command", "broken");
        assertEquals(ExitCodes.FAILED, r.code());
        assertEquals("DUMMY_0  -  ERROR: device unplugged  " + TIMESTAMP + "\n", r.out());
    }

    @Test
    void streamPrintsCountReadingsThenStopsTheStream() throws Exception {
        agent.framesOnStart(10);
        Run r = run("stream", "DUMMY_0", "--count", "3", "--interval", "5");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        List<String> lines = r.outLines();
        assertEquals(3, lines.size(), r.out());
        for (int i = 0; i < 3; i++) {
            assertTrue(lines.get(i).startsWith("#" + i + "  42.5  OK  "), lines.get(i));
        }
        Call.SetupStream setup = agent.expectCall(Call.SetupStream.class);
        assertEquals(5, setup.intervalMs());
        Call.StartStream start = agent.expectCall(Call.StartStream.class);
        assertEquals(new Call.StopStream(start.streamId()), agent.nextCall());
    }

    @Test
    void streamAsksForThePolicyAndPrintsGapsAndTheCountsWhenReadingsWereLost() throws Exception {
        agent.answer(Call.SetupStream.class, c -> new Result.StreamHandle(77, c.policy()));
        agent.answer(Call.StartStream.class, c -> {
            agent.push(new StreamData(c.streamId(), FakeAgent.reading("DUMMY_0", 0)));
            agent.push(new StreamData(c.streamId(), FakeAgent.reading("DUMMY_0", 5)));
            agent.push(new StreamEnded(c.streamId(), "sensor DUMMY_0 removed", new StreamCounts(2, 0, 4)));
            return new Result.Ack();
        });
        Run r = run("stream", "DUMMY_0", "--policy", "drop-oldest");
        assertEquals(ExitCodes.FAILED, r.code());
        assertEquals(SlowConsumerPolicy.DROP_OLDEST, agent.expectCall(Call.SetupStream.class).policy());
        List<String> lines = r.outLines();
        assertEquals(4, lines.size(), r.out());
        assertTrue(lines.get(0).startsWith("#0  "), lines.get(0));
        assertEquals("# 4 readings dropped by the agent before #5 (this client was not reading)", lines.get(1));
        assertTrue(lines.get(2).startsWith("#5  "), lines.get(2));
        assertEquals("# delivered 2, skipped 0, dropped 4 (readings lost while this client was not reading)",
                lines.get(3));
    }

    @Test
    void aGapOfOneReadingIsCountedInTheSingular() {
        agent.answer(Call.StartStream.class, c -> {
            agent.push(new StreamData(c.streamId(), FakeAgent.reading("DUMMY_0", 0)));
            agent.push(new StreamData(c.streamId(), FakeAgent.reading("DUMMY_0", 2)));
            return new Result.Ack();
        });
        Run r = run("stream", "DUMMY_0", "--count", "2");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals("# 1 reading dropped by the agent before #2 (this client was not reading)", r.outLines().get(1));
    }

    @Test
    void streamSharedJoinsTheSharedStreamAndPrintsItsSequencesWithoutAGapBeforeTheFirst() throws Exception {
        agent.sharedStreamsAt(40).framesOnStart(2);
        Run r = run("stream", "DUMMY_0", "--shared", "--interval", "100", "--count", "2");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        Call.SetupStream setup = agent.expectCall(Call.SetupStream.class);
        assertTrue(setup.shared(), setup.toString());
        assertEquals(100, setup.intervalMs());
        List<String> lines = r.outLines();
        assertEquals(2, lines.size(), r.out());
        assertTrue(lines.get(0).startsWith("#40  42.5  OK  "), lines.get(0));
        assertTrue(lines.get(1).startsWith("#41  42.5  OK  "), lines.get(1));
    }

    @Test
    void streamWithoutSharedAsksForAStreamOfItsOwn() throws Exception {
        agent.framesOnStart(1);
        Run r = run("stream", "DUMMY_0", "--count", "1");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertFalse(agent.expectCall(Call.SetupStream.class).shared());
    }

    @Test
    void streamSharedAtIntervalZeroFailsWithTheAgentsReason() {
        Run r = run("stream", "DUMMY_0", "--shared", "--interval", "0");
        assertEquals(ExitCodes.FAILED, r.code(), r.err());
        assertTrue(r.err().contains("interval above 0"), r.err());
    }

    @Test
    void streamPrintsNoCountsWhenNothingWasLost() {
        agent.answer(Call.StartStream.class, c -> {
            agent.push(new StreamEnded(c.streamId(), "sensor DUMMY_0 removed", new StreamCounts(0, 0, 0)));
            return new Result.Ack();
        });
        Run r = run("stream", "DUMMY_0");
        assertEquals(ExitCodes.FAILED, r.code());
        assertEquals("", r.out());
    }

    @Test
    void streamEndedByTheAgentExitsOneWithTheReason() {
        agent.answer(Call.StartStream.class, c -> {
            agent.push(new StreamEnded(c.streamId(), "sensor DUMMY_0 removed"));
            return new Result.Ack();
        });
        Run r = run("stream", "DUMMY_0");
        assertEquals(ExitCodes.FAILED, r.code());
        assertEquals("the agent ended the stream: sensor DUMMY_0 removed\n", r.err());
    }

    // ---- platform and events

    @Test
    void protocolsPrintsATableAndACount() {
        Run r = run("protocols");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals("""
                NAME   TYPE   ENDPOINT  SENSORS
                dummy  dummy  virtual   2
                os     os     os        1
                2 protocols
                """, r.out());
    }

    @Test
    void configPrintsThePcml() {
        Run r = run("config");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals(FakeAgent.PCML + "\n", r.out());
    }

    @Test
    void addProtocolSendsTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("p.pcml");
        Files.writeString(file, "<pcml/>");
        Run r = run("add-protocol", file.toString());
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals(new Call.AddProtocol("<pcml/>"), agent.nextCall());
        assertEquals("added protocol extra (type dummy, endpoint virtual, 5 sensors)\n", r.out());
    }

    @Test
    void removeUnknownProtocolSaysHowToListThem() {
        Run ok = run("remove-protocol", "os");
        assertEquals(ExitCodes.OK, ok.code(), ok.err());
        assertEquals("removed protocol os\n", ok.out());
        Run r = run("remove-protocol", "zzz");
        assertEquals(ExitCodes.FAILED, r.code());
        assertEquals("unknown protocol 'zzz'; run 'protocols' to see the protocols\n", r.err());
    }

    @Test
    void eventsPrintsCountEventsThenUnsubscribes() throws Exception {
        agent.eventsOnSubscribe(List.of(
                new Event(Event.Type.SENSOR_ADDED, "NEW_0", null, FakeAgent.TIMESTAMP_MICROS, "from PCML"),
                new Event(Event.Type.SENSOR_STATE, "DUMMY_0", SensorState.STREAMING, FakeAgent.TIMESTAMP_MICROS, ""),
                new Event(Event.Type.SENSOR_REMOVED, "NEW_0", null, FakeAgent.TIMESTAMP_MICROS, "")));
        Run r = run("events", "--count", "2");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals(TIMESTAMP + "  SENSOR_ADDED  NEW_0  from PCML\n"
                + TIMESTAMP + "  SENSOR_STATE  DUMMY_0  STREAMING\n", r.out());
        agent.expectCall(Call.SubscribeEvents.class);
        agent.expectCall(Call.UnsubscribeEvents.class);
    }

    // ---- root, usage and connection errors

    @Test
    void listTransportsShowsNamesAndDescriptions() {
        Run r = runRaw("--list-transports");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertTrue(r.out().startsWith("NAME"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("inmemory") && l.endsWith("in-memory transport for tests")),
                r.out());
    }

    @Test
    void badUsageExitsTwo() {
        assertEquals(ExitCodes.USAGE, run("read").code(), "missing sensor");
        assertEquals(ExitCodes.USAGE, run("frobnicate").code(), "unknown subcommand");
        assertEquals(ExitCodes.USAGE, run().code(), "no subcommand");
        assertEquals(ExitCodes.USAGE, runRaw("--port", "seven", "list").code(), "bad number");
        Run badTimeout = run("--timeout", "soon", "list");
        assertEquals(ExitCodes.USAGE, badTimeout.code());
        assertTrue(badTimeout.err().contains("'soon' is not a duration"), badTimeout.err());
        assertEquals(ExitCodes.USAGE, run("stream", "DUMMY_0", "--count", "-1").code(), "negative count");
        assertEquals(ExitCodes.USAGE, run("list", "--output", "yaml").code(), "unknown output format");
    }

    @Test
    void everySubcommandAnswersHelpWithItsUsageWithoutConnecting() {
        for (String sub : ClientMain.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))
                .getSubcommands().keySet()) {
            Run r = runRaw("--port", "1", sub, "--help");
            assertEquals(ExitCodes.OK, r.code(), sub + ": " + r.err());
            assertTrue(r.out().startsWith("Usage: salgate-client " + sub), sub + ": " + r.out());
        }
        Run root = runRaw("--help");
        assertEquals(ExitCodes.OK, root.code(), root.err());
        assertTrue(root.out().contains("remove-sensor"), root.out());
    }

    @Test
    void unknownTransportExitsTwoListingTheAvailableOnes() {
        Run r = runRaw("--transport", "nope", "list");
        assertEquals(ExitCodes.USAGE, r.code());
        assertOneLine(r.err());
        assertTrue(r.err().contains("unknown transport 'nope'") && r.err().contains(InMemoryTransport.NAME), r.err());
    }

    @Test
    void nothingListeningExitsThree() {
        Run r = runRaw("--transport", InMemoryTransport.NAME, "--port",
                Integer.toString(InMemoryTransport.unusedPort()), "list");
        assertEquals(ExitCodes.CANNOT_CONNECT, r.code());
        assertOneLine(r.err());
        assertTrue(r.err().startsWith("cannot connect to the agent at 127.0.0.1:"), r.err());
    }

    @Test
    void verboseAddsTheStackTrace() {
        Run r = runRaw("--verbose", "--transport", InMemoryTransport.NAME, "--port",
                Integer.toString(InMemoryTransport.unusedPort()), "list");
        assertEquals(ExitCodes.CANNOT_CONNECT, r.code());
        assertTrue(r.err().contains("\tat "), r.err());
    }

    @Test
    void refusedHelloExitsThreeWithTheAgentsReason() {
        agent.refuseHello("unknown codec");
        Run r = run("list");
        assertEquals(ExitCodes.CANNOT_CONNECT, r.code());
        assertOneLine(r.err());
        assertTrue(r.err().contains("refused the connection: unknown codec"), r.err());
    }

    @Test
    void unansweredRequestExitsOneAfterTheTimeout() {
        agent.silentOn(Call.ListSensors.class);
        Run r = run("--timeout", "300ms", "list");
        assertEquals(ExitCodes.FAILED, r.code());
        assertEquals("the agent at 127.0.0.1:" + agent.port() + " did not answer within 300 ms; try a longer --timeout\n",
                r.err());
    }

    @Test
    void anAgentThatAcceptsTheConnectionButNotTheHelloIsCalledSlowNamingTimeout() {
        agent.silentOnHello();
        Run r = run("--timeout", "300ms", "list");
        assertEquals(ExitCodes.CANNOT_CONNECT, r.code());
        assertEquals("the agent at 127.0.0.1:" + agent.port() + " accepted the connection but did not answer the"
                + " hello within 300 ms: it may be overloaded; give it longer with --timeout\n", r.err());
    }

    @Test
    void helpListsTheExitCodesAsTheyAreMeant() {
        String help = runRaw("--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("Exit codes: 0 ok; 1 the agent refused or failed the request; 2 usage error;"
                + " 3 no session: the agent could not be reached, refused the connection or the hello, or the"
                + " connection broke."), help);
    }

    @Test
    void streamIntervalTakesADurationOrMilliseconds() throws Exception {
        agent.framesOnStart(1);
        assertEquals(ExitCodes.OK, run("stream", "DUMMY_0", "--interval", "2s", "--count", "1").code());
        assertEquals(2000, agent.expectCall(Call.SetupStream.class).intervalMs());
        agent.expectCall(Call.StartStream.class);
        agent.expectCall(Call.StopStream.class);
        assertEquals(ExitCodes.OK, run("stream", "DUMMY_0", "--interval", "250", "--count", "1").code());
        assertEquals(250, agent.expectCall(Call.SetupStream.class).intervalMs());
    }

    @Test
    void aStreamIntervalThatIsNotADurationSaysWhatIsExpected() {
        Run r = run("stream", "DUMMY_0", "--interval", "abc");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().startsWith("--interval: 'abc' is not a duration (e.g. 100ms, 2s, or a number of"
                + " milliseconds)\n"), r.err());
    }

    private static String cml(CommandDescription command) {
        return Cml.write(List.of(command));
    }

    @Test
    void malformedPinIsAUsageErrorSayingWhatAPinLooksLike() {
        Run r = run("--tls-pin", "AB:CD", "list");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().contains("64 hex digits"), r.err());
    }

    @Test
    void twoWaysOfTrustingAreAUsageError() {
        Run r = run("--tls", "--tls-pin", "AB:CD", "list");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().contains("give one of --tls, --tls-ca and --tls-pin"), r.err());
    }

    @Test
    void missingCaFileIsAUsageErrorNamingIt(@TempDir Path dir) {
        Run r = run("list", "--tls-ca", dir.resolve("ca.pem").toString());
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().contains("cannot read --tls-ca") && r.err().contains("ca.pem"), r.err());
    }
}
