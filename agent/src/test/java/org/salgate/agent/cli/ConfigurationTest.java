package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The agent's options from the configuration file, its fragments, the environment and the command
 * line: every option through each source, which source wins, and a bad file refused line by line.
 */
@Timeout(60)
class ConfigurationTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path dir;

    private String out;
    private String err;

    private int run(Map<String, String> env, String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        CommandLine cl = AgentMain.commandLine(env);
        cl.setOut(new PrintWriter(o, true));
        cl.setErr(new PrintWriter(e, true));
        int code = cl.execute(args);
        out = o.toString();
        err = e.toString();
        return code;
    }

    /** The effective configuration --print-config gives with these sources. */
    private JsonNode effective(Map<String, String> env, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--print-config");
        assertEquals(0, run(env, all.toArray(String[]::new)), err);
        return YAML.readTree(out);
    }

    private Path file(String name, String text) throws Exception {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        return Files.writeString(f, text);
    }

    /** How an option takes its value: one, a list, a mapping, or a flag. */
    enum Kind { ONE, LIST, MAP, FLAG }

    /** A value for an option, other than its default; FILE and DIR become an existing file and directory. */
    record Row(String key, Kind kind, String value) {}

    private static final List<Row> EVERY_OPTION = List.of(
            new Row("transport", Kind.ONE, "socket"),
            new Row("host", Kind.ONE, "127.0.0.2"),
            new Row("port", Kind.ONE, "7499"),
            new Row("codec", Kind.ONE, "json"),
            new Row("config", Kind.ONE, "FILE"),
            new Row("state-dir", Kind.ONE, "DIR"),
            new Row("log-level", Kind.ONE, "debug"),
            new Row("log-levels", Kind.MAP, "org.salgate.agent.device=debug"),
            new Row("log-format", Kind.ONE, "json"),
            new Row("dummy-sensors", Kind.ONE, "3"),
            new Row("dummy-payload-bytes", Kind.ONE, "128"),
            new Row("max-frame-bytes", Kind.ONE, "65536"),
            new Row("write-high-water-bytes", Kind.ONE, "2097152"),
            new Row("write-low-water-bytes", Kind.ONE, "65536"),
            new Row("max-queued-bytes", Kind.ONE, "4194304"),
            new Row("slow-consumer-policy", Kind.ONE, "drop-oldest"),
            new Row("drop-oldest-readings", Kind.ONE, "8"),
            new Row("disconnect-after-ms", Kind.ONE, "5000"),
            new Row("max-sessions", Kind.ONE, "12"),
            new Row("hello-timeout-ms", Kind.ONE, "3000"),
            new Row("idle-timeout-ms", Kind.ONE, "60000"),
            new Row("max-buffered-bytes", Kind.ONE, "1048576"),
            new Row("agent-id", Kind.ONE, "gateway-7"),
            new Row("allow-origin", Kind.LIST, "https://console.example:8443"),
            new Row("allow-host", Kind.LIST, "proxy.example"),
            new Row("transport-property", Kind.MAP, "http.bodyTimeoutMillis=5000"),
            new Row("tokens", Kind.ONE, "FILE"),
            new Row("insecure", Kind.FLAG, "true"),
            new Row("plugin-dir", Kind.LIST, "DIR"),
            new Row("relay-allow", Kind.LIST, "10.0.0.5:7431"),
            new Row("device-allow", Kind.LIST, "127.0.0.1:502"),
            new Row("mqtt-url", Kind.ONE, "tcp://127.0.0.1:1883"),
            new Row("mqtt-client-id", Kind.ONE, "gw7"),
            new Row("mqtt-username", Kind.ONE, "gw"),
            new Row("mqtt-password-file", Kind.ONE, "FILE"),
            new Row("mqtt-ca", Kind.ONE, "FILE"),
            new Row("mqtt-qos", Kind.ONE, "2"),
            new Row("mqtt-topic-prefix", Kind.ONE, "plant"),
            new Row("mqtt-stream", Kind.LIST, "DUMMY_0@1s"),
            new Row("mqtt-no-events", Kind.FLAG, "true"),
            new Row("mqtt-homeassistant", Kind.FLAG, "true"),
            new Row("mqtt-homeassistant-prefix", Kind.ONE, "ha"),
            new Row("mqtt-store", Kind.ONE, "/var/lib/salgate/store.mv.db"),
            new Row("mqtt-store-max", Kind.ONE, "500"),
            new Row("mqtt-store-max-age", Kind.ONE, "2h"),
            new Row("mqtt-reconnect-max", Kind.ONE, "30s"),
            new Row("mqtt-drain-rate", Kind.ONE, "200/s"),
            new Row("mqtt-format", Kind.ONE, "sparkplug"),
            new Row("sparkplug-group", Kind.ONE, "plant"),
            new Row("sparkplug-node", Kind.ONE, "gw7"),
            new Row("sparkplug-writes", Kind.FLAG, "true"),
            new Row("influx-url", Kind.ONE, "http://127.0.0.1:8086"),
            new Row("influx-db", Kind.ONE, "lab"),
            new Row("influx-org", Kind.ONE, "plant"),
            new Row("influx-bucket", Kind.ONE, "sensors"),
            new Row("influx-token-file", Kind.ONE, "FILE"),
            new Row("influx-username", Kind.ONE, "gw"),
            new Row("influx-password-file", Kind.ONE, "FILE"),
            new Row("influx-ca", Kind.ONE, "FILE"),
            new Row("influx-measurement", Kind.ONE, "plant"),
            new Row("influx-precision", Kind.ONE, "ms"),
            new Row("influx-stream", Kind.LIST, "DUMMY_0@1s"),
            new Row("influx-batch-size", Kind.ONE, "500"),
            new Row("influx-linger", Kind.ONE, "2s"),
            new Row("influx-store", Kind.ONE, "/var/lib/salgate/influx.mv.db"),
            new Row("influx-store-max", Kind.ONE, "500"),
            new Row("influx-store-max-age", Kind.ONE, "2h"),
            new Row("influx-retry-max", Kind.ONE, "1m"),
            new Row("metrics-port", Kind.ONE, "9400"),
            new Row("metrics-host", Kind.ONE, "::1"),
            new Row("announce", Kind.FLAG, "true"),
            new Row("announce-address", Kind.ONE, "127.0.0.1"),
            new Row("tls-cert", Kind.ONE, "FILE"),
            new Row("tls-key", Kind.ONE, "FILE"),
            new Row("tls-self-signed", Kind.FLAG, "true"));

    @Test
    void theTableHoldsEveryOptionAFileMaySet() {
        TreeSet<String> table = new TreeSet<>(EVERY_OPTION.stream().map(Row::key).toList());
        TreeSet<String> options = new TreeSet<>(Settings.configurable(AgentMain.commandLine().getCommandSpec()).keySet());
        assertEquals(options, table, "a new option needs its row in EVERY_OPTION");
    }

    @Test
    void everyOptionIsTakenFromTheFileTheEnvironmentAndTheCommandLine() throws Exception {
        Path existing = file("existing.txt", "x\n");
        Files.setPosixFilePermissions(existing, PosixFilePermissions.fromString("rw-------"));
        Path existingDir = Files.createDirectories(dir.resolve("existing-dir"));
        JsonNode defaults = effective(Map.of());
        for (Row row : EVERY_OPTION) {
            String value = row.value().replace("FILE", existing.toString()).replace("DIR", existingDir.toString());
            String flag = "--" + row.key();
            String[] pair = value.split("=", 2);
            String fileValue = switch (row.kind()) {
                case ONE -> "'" + value + "'";
                case LIST -> "['" + value + "']";
                case MAP -> "{'" + pair[0] + "': '" + pair[1] + "'}";
                case FLAG -> "true";
            };
            Path config = file(row.key() + ".yaml", "# " + row.key() + "\n" + row.key() + ": " + fileValue + "\n");
            Map<String, JsonNode> bySource = new LinkedHashMap<>();
            bySource.put("file", effective(Map.of(), "--config-file", config.toString()).get(row.key()));
            bySource.put("environment", effective(Map.of(Settings.environmentVariable(row.key()), value))
                    .get(row.key()));
            bySource.put("command line", effective(Map.of(), row.kind() == Kind.FLAG ? new String[] {flag}
                    : new String[] {flag, value}).get(row.key()));
            for (Map.Entry<String, JsonNode> e : bySource.entrySet()) {
                JsonNode got = e.getValue();
                String where = row.key() + " from the " + e.getKey() + ": " + got;
                switch (row.kind()) {
                    case ONE, FLAG -> assertEquals(value, got.asText(), where);
                    case LIST -> assertEquals(List.of(value), List.of(got.get(0).asText()), where);
                    case MAP -> assertEquals(pair[1], got.path(pair[0]).asText(), where);
                }
                assertNotEquals(defaults.get(row.key()), got, row.key() + " must differ from its default to tell");
            }
        }
    }

    @Test
    void theCommandLineWinsOverTheEnvironmentWhichWinsOverTheFileWhichWinsOverTheDefault() throws Exception {
        Path config = file("agent.yaml", "port: 7001\n");
        String f = config.toString();
        assertEquals(7003, effective(Map.of("SALGATE_PORT", "7002"), "--config-file", f, "--port", "7003")
                .get("port").asInt());
        assertEquals(7002, effective(Map.of("SALGATE_PORT", "7002"), "--config-file", f).get("port").asInt());
        assertEquals(7001, effective(Map.of(), "--config-file", f).get("port").asInt());
        assertEquals(7431, effective(Map.of()).get("port").asInt());
        assertEquals(7001, effective(Map.of("SALGATE_CONFIG_FILE", f)).get("port").asInt());
    }

    @Test
    void fragmentsAreReadInNameOrderALaterOneWinningAListReplacingAnEmptyValueRestoringTheDefault()
            throws Exception {
        Path config = file("etc/agent.yaml", "port: 7001\ndevice-allow: [127.0.0.1:502, 127.0.0.1:503]\n"
                + "mqtt-qos: 0\n");
        file("etc/conf.d/20-port.yaml", "port: 7020\n");
        file("etc/conf.d/10-port.yaml", "port: 7010\ndevice-allow: [127.0.0.1:504]\n");
        file("etc/conf.d/30-qos.yaml", "mqtt-qos:\n");
        file("etc/conf.d/README", "port: 1\n");
        JsonNode c = effective(Map.of(), "--config-file", config.toString());
        assertEquals(7020, c.get("port").asInt());
        assertEquals(List.of("127.0.0.1:504"), YAML.convertValue(c.get("device-allow"), List.class));
        assertEquals(1, c.get("mqtt-qos").asInt());

        Path other = Files.createDirectories(dir.resolve("other"));
        file("other/1.yaml", "port: 7100\n");
        assertEquals(7100, effective(Map.of(), "--config-file", config.toString(), "--config-dir", other.toString())
                .get("port").asInt());
        assertEquals(List.of("127.0.0.1:9"), YAML.convertValue(effective(Map.of(), "--config-file",
                config.toString(), "--device-allow", "127.0.0.1:9").get("device-allow"), List.class),
                "a list on the command line replaces the file's");
    }

    @Test
    void printConfigMasksAPasswordAndSaysWhereEachValueCameFrom() throws Exception {
        Path config = file("agent.yaml", "mqtt-url: tcp://gw:s3cret@127.0.0.1:1883\n");
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
        JsonNode c = effective(Map.of(), "--config-file", config.toString());
        assertEquals("tcp://gw:****@127.0.0.1:1883", c.get("mqtt-url").asText());
        assertTrue(!out.contains("s3cret"), out);
        assertTrue(out.contains("#   mqtt-url: from " + config + ":1"), out);
    }

    /** --check on a file of these lines: the exit code, and stderr's lines. */
    private List<String> check(int expected, String text) throws Exception {
        Path config = file("agent.yaml", text);
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
        assertEquals(expected, run(Map.of(), "--config-file", config.toString(), "--check"), err);
        return err.lines().toList();
    }

    @Test
    void anUnknownKeyIsRefusedWithTheNearestKnownOne() throws Exception {
        Path f = dir.resolve("agent.yaml");
        assertEquals(List.of("unknown key 'mqtt-ur' at " + f + ":2; did you mean 'mqtt-url'?"),
                check(2, "port: 7001\nmqtt-ur: tcp://127.0.0.1:1883\n"));
        assertEquals(List.of("unknown key 'colour' at " + f + ":1; the keys are the long options of --help"
                + " without the dashes"), check(2, "colour: blue\n"));
        assertEquals(List.of("'check' at " + f + ":1 is for the command line only; remove it from the file"),
                check(2, "check: true\n"));
    }

    @Test
    void aValueOfTheWrongTypeIsRefusedNamingItsLine() throws Exception {
        Path f = dir.resolve("agent.yaml");
        assertEquals(List.of("wrong value for 'max-sessions' at " + f + ":3: 'many' is not an int"),
                check(2, "# sessions\n\nmax-sessions: many\n"));
        assertEquals(List.of("wrong value for 'host' at " + f + ":1: it takes one value, not a list"),
                check(2, "host: [127.0.0.1, 127.0.0.2]\n"));
        assertEquals(List.of("wrong value for 'insecure' at " + f + ":1: write true or false"),
                check(2, "insecure: sometimes\n"));
        assertEquals(List.of("wrong value for 'slow-consumer-policy' at " + f + ":1: unknown slow-consumer policy"
                + " 'nap': choose one of block, drop-oldest, disconnect"), check(2, "slow-consumer-policy: nap\n"));
    }

    @Test
    void anOutOfRangePortIsRefusedNamingItsLine() throws Exception {
        Path f = dir.resolve("agent.yaml");
        assertEquals(List.of("--port must be 0..65535 (0 picks a free port), got 70000 (port at " + f + ":2)"),
                check(2, "host: 127.0.0.1\nport: 70000\n"));
    }

    @Test
    void aMissingReferencedFileIsRefusedNamingItsLine() throws Exception {
        Path f = dir.resolve("agent.yaml");
        Path missing = dir.resolve("platform.xml");
        assertEquals(List.of("'config' at " + f + ":1 names " + missing + ", which does not exist; create it or"
                + " correct the path"), check(2, "config: " + missing + "\n"));
        assertEquals(List.of("cannot read the configuration file " + dir.resolve("none.yaml") + ": there is no such"
                + " file; create it or correct the path"), checkFile(dir.resolve("none.yaml")));
    }

    private List<String> checkFile(Path file) {
        assertEquals(2, run(Map.of(), "--config-file", file.toString(), "--check"), err);
        return err.lines().toList();
    }

    @Test
    void aWorldReadableSecretIsAWarningAndTheCheckPasses() throws Exception {
        Path tokens = file("tokens", "0123456789abcdef0123 admin\n");
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(List.of("warning: " + tokens + " ('tokens' at " + dir.resolve("agent.yaml") + ":1) holds a"
                + " secret and every user of this machine can read it; chmod o-rwx " + tokens),
                check(0, "tokens: " + tokens + "\n"));
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-------"));
        assertEquals(List.of(), check(0, "tokens: " + tokens + "\n"));
        assertTrue(out.startsWith("the configuration can start the agent"), out);
    }

    @Test
    void aPasswordInAWorldReadableConfigurationIsAWarning() throws Exception {
        Path config = file("agent.yaml", "mqtt-url: tcp://gw:s3cret@127.0.0.1:1883\n");
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(0, run(Map.of(), "--config-file", config.toString(), "--check"), err);
        assertTrue(err.startsWith("warning: " + config + " holds a password ('mqtt-url' at " + config + ":1)"), err);
    }

    @Test
    void badYamlAndBadEnvironmentValuesAreRefusedNamingWhere() throws Exception {
        Path f = dir.resolve("agent.yaml");
        List<String> yaml = check(2, "port: 7001\ndevice-allow: [127.0.0.1:502\n");
        assertEquals(1, yaml.size(), yaml.toString());
        assertTrue(yaml.get(0).startsWith(f + ":2: not valid YAML: "), yaml.toString());
        assertEquals(List.of("key 'port' at " + f + ":2 is given already at line 1; keep one"),
                check(2, "port: 7001\nport: 7002\n"));
        assertEquals(2, run(Map.of("SALGATE_PORT", "abc")));
        assertEquals("wrong value for 'port' at environment variable SALGATE_PORT: 'abc' is not an int\n", err);
        assertEquals(2, run(Map.of("SALGATE_INSECURE", "yes")));
        assertEquals("wrong value 'yes' in the environment variable SALGATE_INSECURE: write true or false\n", err);
    }

    @Test
    void checkReadsThePlatformFileItNamesAndStartsNothing() throws Exception {
        Path pcml = file("platform.xml", "<platform");
        Path f = dir.resolve("agent.yaml");
        List<String> lines = check(2, "config: " + pcml + "\n");
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("the configuration " + pcml + " is not well-formed XML"), lines.toString());
        assertEquals(List.of(), check(0, "port: 7431\ndummy-sensors: 2\n"));
        assertEquals("the configuration can start the agent (read " + f + ")\n", out);
    }
}
