package org.salgate.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.RunConfig;
import org.salgate.bench.run.Security;
import picocli.CommandLine;

class CommandLineTest {

    private static String run(String... args) {
        CommandLine cl = BenchCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return code + "\n" + out + err;
    }

    @Test
    void durationsAcceptSecondsMillisAndMinutes() {
        DurationConverter c = new DurationConverter();
        assertEquals(Duration.ofSeconds(60), c.convert("60s"));
        assertEquals(Duration.ofMillis(500), c.convert("500ms"));
        assertEquals(Duration.ofMinutes(2), c.convert("2m"));
        assertEquals(Duration.ofMillis(1500), c.convert("1.5"));
        assertThrows(CommandLine.TypeConversionException.class, () -> c.convert("soon"));
    }

    @Test
    void resourceMethodMeansBothResourceTests() {
        assertEquals(EnumSet.of(Method.RTT, Method.RESOURCE_SYNC, Method.RESOURCE_ASYNC),
                RunCommand.parseMethods(List.of("rtt", "resource"), Level.TRANSPORT));
    }

    @Test
    void agentMethodsAreRejectedAtTransportLevel() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> RunCommand.parseMethods(List.of("sync"), Level.TRANSPORT));
        assertTrue(e.getMessage().contains("rtt, tp, stream, resource"));
    }

    @Test
    void quickProfileShortensCellsAndExplicitOptionsWin() {
        TransportCommand t = new TransportCommand();
        new CommandLine(t).registerConverter(Duration.class, new DurationConverter())
                .parseArgs("--quick", "--reps", "2", "--clients", "1,300,1000", "--tp-duration", "5s",
                        "--transports", "netty,mina", "--out", "x");
        RunConfig c = t.config();
        assertTrue(c.quick());
        assertEquals(2, c.reps());
        assertEquals(List.of(1, 300, 1000), c.clients());
        assertEquals(Duration.ofSeconds(5), c.tpDuration());
        assertEquals(Duration.ofSeconds(2), c.streamDuration());
        assertEquals(List.of("rmi", "netty", "mina"), c.transportsWithBaseline());
        assertEquals(Path.of("x"), c.out());
    }

    @Test
    void securityPlainTlsRunsEachTransportBothWaysAndScoresThePlainCells() {
        TransportCommand t = new TransportCommand();
        new CommandLine(t).parseArgs("--quick", "--transports", "netty", "--security", "tls,plain", "--out", "x");
        RunConfig c = t.config();
        assertEquals(List.of(Security.PLAIN, Security.TLS), c.security());
        assertEquals(List.of("rmi", "rmi+tls", "netty", "netty+tls"), c.cellNames());
        assertEquals("rmi", c.scoredBaseline());
        assertEquals(List.of("raw-socket", "rmi", "rmi+tls", "netty", "netty+tls"),
                org.salgate.bench.run.Plan.of(c).servers());
    }

    @Test
    void tlsAloneRunsEveryCellOverTlsAndScoresAgainstTheTlsBaseline() {
        TransportCommand t = new TransportCommand();
        new CommandLine(t).parseArgs("--quick", "--transports", "netty", "--tls", "--out", "x");
        RunConfig c = t.config();
        assertEquals(List.of(Security.TLS), c.security());
        assertEquals(List.of("rmi+tls", "netty+tls"), c.cellNames());
        assertEquals("rmi+tls", c.scoredBaseline());
    }

    @Test
    void securityDefaultsToPlain() {
        TransportCommand t = new TransportCommand();
        new CommandLine(t).parseArgs("--quick", "--out", "x");
        assertEquals(List.of(Security.PLAIN), t.config().security());
    }

    @Test
    void badSecurityValuesAreBadUsage() {
        String unknown = run("transport", "--quick", "--security", "ssl");
        assertTrue(unknown.startsWith("2\n"), unknown);
        assertTrue(unknown.contains("unknown security 'ssl'"), unknown);
        String both = run("transport", "--quick", "--security", "plain,tls", "--tls");
        assertTrue(both.startsWith("2\n"), both);
        assertTrue(both.contains("--tls is --security tls"), both);
        String twice = run("agent", "--quick", "--security", "tls,tls");
        assertTrue(twice.startsWith("2\n"), twice);
    }

    @Test
    void defaultsAreThePapers() {
        TransportCommand t = new TransportCommand();
        new CommandLine(t).parseArgs();
        RunConfig c = t.config();
        assertEquals(List.of(1, 10, 30, 70, 100), c.clients());
        assertEquals(3, c.reps());
        assertEquals(1000, c.rttCalls());
        assertEquals(Duration.ofSeconds(60), c.tpDuration());
        assertEquals(Duration.ofSeconds(30), c.streamDuration());
        assertEquals("rmi", c.baseline());
        assertTrue(c.out().startsWith("bench-results"));
    }

    @Test
    void paperCommandPrintsTheFinalScoresAndTheInconsistencies() {
        String out = run("paper");
        assertTrue(out.startsWith("0\n"), out);
        assertTrue(out.contains("101.90 %") && out.contains("109.60 %") && out.contains("103.37 %"), out);
        assertTrue(out.contains("168.08 %"), out);
        assertTrue(out.contains("printed 13.64 %, formula gives 14.64 %"), out);
        assertTrue(out.contains("Table VII"), out);
    }

    @Test
    void unknownOptionFailsWithUsage() {
        String out = run("transport", "--bogus");
        assertTrue(out.startsWith("2\n"), out);
        assertTrue(out.contains("Unknown option"), out);
    }

    @Test
    void optionValuesThatMakeNoRunAreBadUsage() {
        String zeroClients = run("transport", "--quick", "--clients", "0");
        assertTrue(zeroClients.startsWith("2\n"), zeroClients);
        assertTrue(zeroClients.contains("client counts must be positive, got [0]"), zeroClients);
        String unknown = run("transport", "--quick", "--transports", "nope");
        assertTrue(unknown.startsWith("2\n"), unknown);
        assertTrue(unknown.contains("unknown transport 'nope'"), unknown);
        String badMethod = run("agent", "--quick", "--methods", "rtt");
        assertTrue(badMethod.startsWith("2\n"), badMethod);
    }

    @Test
    void scaleOptionsThatMakeNoRunAreBadUsage() {
        String mode = run("scale", "--mode", "busy");
        assertTrue(mode.startsWith("2\n"), mode);
        assertTrue(mode.contains("unknown mode 'busy'; use stream, fanout or idle"), mode);
        String processes = run("scale", "--client-processes", "0");
        assertTrue(processes.startsWith("2\n"), processes);
        assertTrue(processes.contains("--client-processes must be at least 1"), processes);
        String transport = run("scale", "--mode", "idle", "--transports", "nope");
        assertTrue(transport.startsWith("2\n"), transport);
        assertTrue(transport.contains("unknown transport 'nope'"), transport);
    }

    @Test
    void scaleHelpSaysHowTheClientsAreSpread() {
        String help = run("scale", "--help");
        assertTrue(help.startsWith("0\n"), help);
        assertTrue(help.contains("Client i runs in client process i mod N"), help);
        for (String own : List.of("--mode", "--client-processes", "--interval-ms", "--connect-rate", "--list-calls")) {
            assertTrue(help.contains(own), own + " missing from:\n" + help);
        }
    }

    @Test
    void eachLevelsHelpListsOnlyItsOwnOptions() {
        String transport = run("transport", "--help");
        assertTrue(transport.startsWith("0\n"), transport);
        for (String own : List.of("--tp-duration", "--rtt-calls", "--no-limits", "--clients", "--quick")) {
            assertTrue(transport.contains(own), own + " missing from:\n" + transport);
        }
        for (String other : List.of("--agent-duration", "--dummy-sensors")) {
            assertFalse(transport.contains(other), other + " in:\n" + transport);
        }
        String agent = run("agent", "--help");
        for (String own : List.of("--agent-duration", "--dummy-sensors", "--clients")) {
            assertTrue(agent.contains(own), own + " missing from:\n" + agent);
        }
        for (String other : List.of("--tp-duration", "--rtt-calls", "--no-limits", "--rate")) {
            assertFalse(agent.contains(other), other + " in:\n" + agent);
        }
    }

    @Test
    void rootCommandListsSubcommands() {
        String out = run();
        for (String s : List.of("transport", "agent", "score", "paper", "codec", "matrix", "scale")) {
            assertTrue(out.contains(s), out);
        }
    }

    @Test
    void compareSetsTwoSavedRunsSideBySide(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String cell = "{\"transport\":\"netty\",\"method\":\"agent_async\",\"type\":\"dummy read\",\"clients\":1,"
                + "\"metrics\":{\"msgs_per_s\":{\"median\":%s,\"min\":%s,\"max\":%s,\"reps\":3}}}";
        Path before = java.nio.file.Files.createDirectories(dir.resolve("before"));
        Path after = java.nio.file.Files.createDirectories(dir.resolve("after"));
        java.nio.file.Files.writeString(before.resolve("summary.json"),
                "{\"run\":{},\"cells\":[" + String.format(cell, 100, 90, 110) + "]}");
        java.nio.file.Files.writeString(after.resolve("summary.json"),
                "{\"run\":{},\"cells\":[" + String.format(cell, 200, 180, 220) + "]}");

        String out = run("compare", before.toString(), after.toString(), "--labels", "old,new");

        assertTrue(out.startsWith("0\n"), out);
        assertTrue(out.contains("| netty | agent_async | dummy read | 1 | msgs_per_s | 100 [90.00-110] | 200 [180-220] | 2.00 | higher |"),
                out);
    }

    @Test
    void compareRefusesAFolderWithoutASummary(@org.junit.jupiter.api.io.TempDir Path dir) {
        String out = run("compare", dir.toString(), dir.toString());

        assertFalse(out.startsWith("0\n"), out);
        assertTrue(out.contains("is not a bench results folder"), out);
    }
}
