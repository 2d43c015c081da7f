package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** The MQTT, metrics and announcement options: bad values are refused before anything starts. */
@Timeout(30)
class GatewayOptionsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = AgentMain.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void helpListsTheGatewayOptions() {
        assertEquals(0, run("--help"));
        for (String option : new String[] {"--mqtt-url", "--mqtt-stream", "--mqtt-qos", "--mqtt-topic-prefix",
                "--mqtt-password-file", "--mqtt-ca", "--mqtt-store-max", "--mqtt-store-max-age", "--metrics-port", "--announce"}) {
            assertTrue(out.toString().contains(option), option + " missing from:\n" + out);
        }
    }

    @Test
    void mqttOptionsWithoutABrokerAreRefused() {
        assertEquals(2, run("--port", "0", "--mqtt-stream", "DUMMY_0@1s"));
        assertTrue(err.toString().contains("need --mqtt-url"), err.toString());
    }

    @Test
    void aMalformedStreamIsRefusedWithTheExpectedForm() {
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--mqtt-stream", "DUMMY_0"));
        assertTrue(err.toString().contains("SENSOR[:COMMAND]@INTERVAL"), err.toString());
    }

    @Test
    void aBadStreamOptionOrDrainRateIsRefusedNamingTheOption() {
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--mqtt-stream", "DUMMY_0@1s deadbnd=1"));
        assertTrue(err.toString().contains("--mqtt-stream 'DUMMY_0@1s deadbnd=1': 'deadbnd=1' is not a stream option"),
                err.toString());
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--mqtt-drain-rate", "fast"));
        assertTrue(err.toString().contains("--mqtt-drain-rate: 'fast' is not a drain rate"), err.toString());
    }

    @Test
    void aCaFileIsRefusedForAPlainBrokerAndWhenItCannotBeRead() {
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--mqtt-ca", "ca.pem"));
        assertTrue(err.toString().contains("--mqtt-ca is for an ssl:// broker"), err.toString());
        assertEquals(2, run("--port", "0", "--mqtt-url", "ssl://127.0.0.1:1", "--mqtt-ca", "no-such-ca.pem"));
        assertTrue(err.toString().contains("cannot read the MQTT broker's CA file no-such-ca.pem"), err.toString());
    }

    @Test
    void sparkplugIdsThatAreNotOneTopicLevelAndSparkplugOptionsWithoutItsFormatAreRefused() {
        err.getBuffer().setLength(0);
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--mqtt-format", "sparkplug",
                "--sparkplug-group", "plant/east"));
        assertTrue(err.toString().contains("Sparkplug group id 'plant/east' is not usable")
                && err.toString().contains("without / + #"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--sparkplug-writes"));
        assertTrue(err.toString().contains("need --mqtt-format sparkplug"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--sparkplug-node", "gw1"));
        assertTrue(err.toString().contains("need --mqtt-format sparkplug"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--mqtt-format", "xml"));
        assertTrue(err.toString().contains("--mqtt-format must be json, influx or sparkplug, not 'xml'"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--mqtt-format", "sparkplug",
                "--mqtt-homeassistant"));
        assertTrue(err.toString().contains("use --mqtt-homeassistant or --mqtt-format sparkplug, not both"),
                err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--port", "0", "--mqtt-format", "sparkplug"));
        assertTrue(err.toString().contains("need --mqtt-url"), err.toString());
    }

    @Test
    void aBrokerUrlOfAnotherSchemeIsRefused() {
        assertEquals(2, run("--port", "0", "--mqtt-url", "http://127.0.0.1:1883"));
        assertTrue(err.toString().contains("tcp:// or ssl://"), err.toString());
    }

    @Test
    void badQosAgeAndPortAreRefused() {
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--mqtt-qos", "3"));
        assertEquals(2, run("--port", "0", "--mqtt-url", "tcp://127.0.0.1:1", "--mqtt-store-max-age", "soon"));
        assertEquals(2, run("--port", "0", "--metrics-port", "70000"));
        assertEquals(2, run("--port", "0", "--announce-address", "127.0.0.1"));
        assertTrue(err.toString().contains("QoS must be 0, 1 or 2") && err.toString().contains("not a duration")
                && err.toString().contains("--metrics-port") && err.toString().contains("needs --announce"),
                err.toString());
    }

    @Test
    void metricsBeyondLoopbackAreRefusedWithoutTlsAndTokensAsTheAgentsOwnPortIs() {
        assertEquals(2, run("--port", "0", "--metrics-port", "0", "--metrics-host", "0.0.0.0"));
        assertTrue(err.toString().contains("--metrics-host 0.0.0.0: refusing to serve metrics on 0.0.0.0 without TLS"
                + " and tokens") && err.toString().contains("--insecure"), err.toString());
    }

    @Test
    void durationsTakeAUnitOrIso8601() {
        assertEquals(Duration.ofHours(24), GatewayOptions.duration("24h", "x"));
        assertEquals(Duration.ofMillis(500), GatewayOptions.duration("500ms", "x"));
        assertEquals(Duration.ofSeconds(30), GatewayOptions.duration("PT30S", "x"));
    }
}
