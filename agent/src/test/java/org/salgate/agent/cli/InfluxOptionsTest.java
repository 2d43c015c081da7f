package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** The InfluxDB options and --mqtt-format: bad values are refused, saying which, before anything starts. */
@Timeout(30)
class InfluxOptionsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = AgentMain.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void helpListsTheInfluxOptions() {
        assertEquals(0, run("--help"));
        for (String option : new String[] {"--influx-url", "--influx-db", "--influx-org", "--influx-bucket",
                "--influx-token-file", "--influx-stream", "--influx-store-max", "--influx-precision", "--mqtt-format"}) {
            assertTrue(out.toString().contains(option), option + " missing from:\n" + out);
        }
    }

    @Test
    void influxOptionsWithoutAServerAreRefused() {
        assertEquals(2, run("--port", "0", "--influx-stream", "DUMMY_0@1s"));
        assertTrue(err.toString().contains("the --influx-* options need --influx-url"), err.toString());
    }

    @Test
    void aServerNeedsADatabaseOrAnOrganizationAndABucket() {
        assertEquals(2, run("--port", "0", "--influx-url", "http://127.0.0.1:1"));
        assertTrue(err.toString().contains("either a database (1.x, --influx-db) or an organization and a bucket"),
                err.toString());
        assertEquals(2, run("--port", "0", "--influx-url", "http://127.0.0.1:1", "--influx-bucket", "b"));
        assertTrue(err.toString().contains("needs both --influx-org and --influx-bucket"), err.toString());
    }

    @Test
    void badUrlPrecisionAndCaAreRefused() {
        assertEquals(2, run("--port", "0", "--influx-url", "tcp://127.0.0.1:8086", "--influx-db", "d"));
        assertEquals(2, run("--port", "0", "--influx-url", "http://127.0.0.1:1", "--influx-db", "d",
                "--influx-precision", "h"));
        assertEquals(2, run("--port", "0", "--influx-url", "http://127.0.0.1:1", "--influx-db", "d",
                "--influx-ca", "ca.pem"));
        assertEquals(2, run("--port", "0", "--influx-url", "https://127.0.0.1:1", "--influx-db", "d",
                "--influx-ca", "no-such-ca.pem"));
        String e = err.toString();
        assertTrue(e.contains("give http:// or https://") && e.contains("precision 'h' is not one of ns, us, ms, s")
                && e.contains("--influx-ca is for an https:// server")
                && e.contains("cannot read the InfluxDB server's CA file no-such-ca.pem"), e);
    }

    @Test
    void anUnreadableTokenFileIsNamed() {
        assertEquals(2, run("--port", "0", "--influx-url", "http://127.0.0.1:1", "--influx-org", "o",
                "--influx-bucket", "b", "--influx-token-file", "no-such.token"));
        assertTrue(err.toString().contains("cannot read the InfluxDB token file no-such.token"), err.toString());
    }
}
