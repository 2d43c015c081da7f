package org.salgate.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Node-RED (npm {@code node-red}), a real third-party consumer of the bridge's topics: run by the
 * tests with a flow that subscribes to a topic filter on the broker (as an MQTT 3.1.1 client, JSON
 * payloads parsed by Node-RED) and appends one line per message it receives to a file:
 * {@code topic <tab> payload as JSON} (Node-RED's parsed object re-serialized, or a JSON string). Its editor listens on a free loopback
 * port. Node-RED is installed in {@code target/node-red} ({@code .ci/run} does it), or where the
 * system property {@code nodered.modules} says.
 */
final class NodeRed implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final Path received;
    private final Process process;

    private NodeRed(Path dir, Path received, Process process) {
        this.dir = dir;
        this.received = received;
        this.process = process;
    }

    /**
     * Starts Node-RED subscribed to {@code filter} on the broker at {@code brokerPort}, with its
     * user directory in {@code dir}, and waits until it has subscribed.
     */
    static NodeRed start(Path dir, int brokerPort, String filter) throws IOException, InterruptedException {
        Path modules = Path.of(System.getProperty("nodered.modules", "target/node-red/node_modules")).toAbsolutePath();
        Path red = modules.resolve("node-red").resolve("red.js");
        if (!Files.isRegularFile(red)) {
            throw new IllegalStateException("Node-RED is not installed in " + modules + "; run 'npm install --prefix"
                    + " target/node-red node-red@4.1.8' in integrations/it (as .ci/run does)");
        }
        Files.createDirectories(dir);
        Path received = dir.resolve("received.txt");
        Files.writeString(dir.resolve("flows.json"), flow(brokerPort, filter, received));
        int uiPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            uiPort = s.getLocalPort();
        }
        Files.writeString(dir.resolve("settings.js"), String.join("\n",
                "module.exports = {",
                "  uiHost: '127.0.0.1',",
                "  uiPort: " + uiPort + ",",
                "  flowFile: 'flows.json',",
                "  credentialSecret: false,",
                "  logging: { console: { level: 'info' } },",
                "};", ""));
        Path log = dir.resolve("node-red.log");
        Process p = new ProcessBuilder("node", red.toString(), "--settings", dir.resolve("settings.js").toString(),
                "--userDir", dir.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        NodeRed n = new NodeRed(dir, received, p);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String out = Files.exists(log) ? Files.readString(log) : "";
            if (out.contains("Connected to broker")) {
                return n;
            }
            if (!p.isAlive()) {
                throw new IOException("Node-RED exited with " + p.exitValue() + ":\n" + out);
            }
            Thread.sleep(100);
        }
        n.close();
        throw new IOException("Node-RED did not connect to the broker within 60 s:\n" + Files.readString(log));
    }

    /**
     * A flow: an MQTT broker node, an "mqtt in" node on {@code filter}, a function node, a file node.
     * Their ids are unlike any value, since Node-RED takes a value equal to a node's id for a reference.
     */
    private static String flow(int brokerPort, String filter, Path out) throws IOException {
        ArrayNode nodes = JSON.createArrayNode();
        nodes.addObject().put("id", "flow-tab").put("type", "tab").put("label", "salgate");
        nodes.addObject().put("id", "node-broker").put("type", "mqtt-broker").put("name", "mosquitto")
                .put("broker", "127.0.0.1").put("port", Integer.toString(brokerPort)).put("clientid", "node-red-it")
                .put("autoConnect", true).put("usetls", false).put("protocolVersion", "4").put("keepalive", "60")
                .put("cleansession", true);
        ObjectNode in = nodes.addObject().put("id", "node-in").put("type", "mqtt in").put("z", "flow-tab")
                .put("topic", filter).put("qos", "1").put("datatype", "auto-detect").put("broker", "node-broker")
                .put("nl", false).put("rap", true).put("rh", 0).put("inputs", 0);
        in.putArray("wires").addArray().add("node-line");
        ObjectNode line = nodes.addObject().put("id", "node-line").put("type", "function").put("z", "flow-tab")
                .put("func", "msg.payload = msg.topic + '\\t' + JSON.stringify(msg.payload); return msg;")
                .put("outputs", 1);
        line.putArray("wires").addArray().add("node-file");
        ObjectNode file = nodes.addObject().put("id", "node-file").put("type", "file").put("z", "flow-tab")
                .put("filename", out.toString()).put("filenameType", "str").put("appendNewline", true)
                .put("createDir", true).put("overwriteFile", "false");
        file.putArray("wires");
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(nodes);
    }

    /** The lines Node-RED wrote so far: topic, a tab, the payload as JSON. */
    List<String> received() throws IOException {
        return Files.exists(received) ? Files.readAllLines(received, StandardCharsets.UTF_8) : List.of();
    }

    /** What Node-RED logged. */
    String log() throws IOException {
        return Files.readString(dir.resolve("node-red.log"));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
