package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.transport.Transports;
import picocli.CommandLine;

@Timeout(30)
class AgentMainTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = AgentMain.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void helpListsEveryOption() {
        assertEquals(0, run("--help"));
        for (String option : new String[] {"--transport", "--host", "--port", "--codec", "--config", "--dummy-sensors",
                "--dummy-payload-bytes", "--max-frame-bytes", "--agent-id", "--list-transports", "--version"}) {
            assertTrue(out.toString().contains(option), option + " missing from:\n" + out);
        }
    }

    @Test
    void listTransportsPrintsTheTransportsFound() {
        assertEquals(0, run("--list-transports"));
        for (String name : Transports.available().keySet()) {
            assertTrue(out.toString().contains(name), out.toString());
        }
    }

    @Test
    void unknownTransportFailsWithTheAvailableOnes() {
        assertEquals(2, run("--transport", "carrier-pigeon"));
        assertTrue(err.toString().contains("unknown transport 'carrier-pigeon'") && err.toString().contains("available"),
                err.toString());
    }

    @Test
    void unknownCodecFailsWithTheAvailableOnes() {
        String transport = Transports.available().keySet().stream().findFirst().orElse("netty");
        int code = run("--transport", transport, "--codec", "morse");
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("unknown") && err.toString().contains("protobuf"), err.toString());
    }

    @Test
    void invalidConfigurationFailsWithExitCode2(@TempDir Path dir) throws Exception {
        String transport = Transports.available().keySet().stream().findFirst().orElse("netty");
        Path bad = Files.writeString(dir.resolve("bad.xml"), "<platform");
        assertEquals(2, run("--transport", transport, "--config", bad.toString()));
        assertTrue(err.toString().contains("bad.xml"), err.toString());
        assertEquals(2, run("--transport", transport, "--config", dir.resolve("missing.xml").toString()));
    }

    @Test
    void versionIsPrinted() {
        assertEquals(0, run("--version"));
        assertTrue(out.toString().startsWith("salgate agent "), out.toString());
    }

    @Test
    void tlsOptionsAreListedAndSayWhetherTlsIsConfigured() {
        assertEquals(0, run("--help"));
        for (String option : new String[] {"--tls-cert", "--tls-key", "--tls-self-signed"}) {
            assertTrue(out.toString().contains(option), option + " missing from:\n" + out);
        }
        AgentMain plain = new AgentMain();
        new CommandLine(plain).parseArgs();
        assertEquals(false, plain.tls.isConfigured());
        AgentMain selfSigned = new AgentMain();
        new CommandLine(selfSigned).parseArgs("--tls-self-signed");
        assertTrue(selfSigned.tls.isConfigured());
    }

    @Test
    void certificateWithoutItsKeyFailsWithExitCode2(@TempDir Path dir) throws Exception {
        Path cert = Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\n");
        assertEquals(2, run("--port", "0", "--tls-cert", cert.toString()));
        assertTrue(err.toString().contains("--tls-cert and --tls-key go together"), err.toString());
    }

    @Test
    void unreadableKeyFileFailsWithExitCode2NamingIt(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing.pem");
        assertEquals(2, run("--port", "0", "--tls-cert", missing.toString(), "--tls-key", missing.toString()));
        assertTrue(err.toString().contains("cannot set up TLS") && err.toString().contains("missing.pem"),
                err.toString());
    }
}
