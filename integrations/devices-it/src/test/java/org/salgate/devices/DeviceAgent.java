package org.salgate.devices;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.salgate.client.SalClient;
import org.salgate.transport.tck.AgentProcess;

/**
 * The agent jar run as a user runs it ({@link AgentProcess}): a PCML file of device protocols given
 * with {@code --config}, the devices allowed with {@code --device-allow}; read by the Java client
 * (transport netty) or over REST (transport http) with {@link HttpClient}.
 */
final class DeviceAgent implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AgentProcess process;
    private final Path config;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private DeviceAgent(AgentProcess process, Path config) {
        this.process = process;
        this.config = config;
    }

    /**
     * Starts the agent jar with {@code transport} serving {@code protocols} (PCML {@code <protocol>}
     * elements), reaching the devices {@code allowed} names.
     */
    static DeviceAgent start(String transport, String allowed, String... protocols) throws Exception {
        Path config = Files.createTempFile("salgate-devices-", ".pcml");
        Files.writeString(config, platform(protocols), StandardCharsets.UTF_8);
        List<String> args = new ArrayList<>(List.of("--config", config.toString(), "--dummy-sensors", "0"));
        if (!allowed.isEmpty()) {
            args.addAll(List.of("--device-allow", allowed));
        }
        return new DeviceAgent(AgentProcess.start(transport, 0, List.of(), args), config);
    }

    /** A PCML document of {@code protocols}. */
    static String platform(String... protocols) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<platform xmlns=\"urn:salgate:pcml:1.0\">\n"
                + String.join("\n", protocols) + "\n</platform>\n";
    }

    /**
     * A Modbus protocol named {@code name} on {@code endpoint}: {@code parameters} alternate names and
     * values, then {@code channels} ({@link #channel}).
     */
    static String modbus(String name, String endpoint, List<String> parameters, String... channels) {
        StringBuilder xml = new StringBuilder("  <protocol name=\"" + name + "\" type=\"modbus\" endpoint=\""
                + endpoint + "\">\n");
        for (int i = 0; i < parameters.size(); i += 2) {
            xml.append("    <parameter name=\"").append(parameters.get(i)).append("\" value=\"")
                    .append(parameters.get(i + 1)).append("\"/>\n");
        }
        for (String c : channels) {
            xml.append(c);
        }
        return xml.append("  </protocol>").toString();
    }

    /**
     * A channel: {@code settings} is what goes in its element (unit, scale, access...), {@code attributes}
     * alternate the names and values of its Modbus attributes.
     */
    static String channel(String name, String settings, String... attributes) {
        StringBuilder xml = new StringBuilder("    <channel name=\"" + name + "\" " + settings + ">\n");
        for (int i = 0; i < attributes.length; i += 2) {
            xml.append("      <attribute name=\"").append(attributes[i]).append("\" value=\"")
                    .append(attributes[i + 1]).append("\"/>\n");
        }
        return xml.append("    </channel>\n").toString();
    }

    /** A client of the agent (transport netty). */
    SalClient client() throws IOException {
        return SalClient.builder().transport("netty").host("127.0.0.1").port(process.port())
                .requestTimeout(Duration.ofSeconds(20)).connect();
    }

    /** The answer to a REST call (transport http): its status and its body. */
    record Answer(int status, String body) {
        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }
    }

    Answer get(String path, String accept) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).header("Accept", accept).GET());
    }

    Answer post(String path, String contentType, String body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** An HTTP client of the agent, for streams (Server-Sent Events). */
    HttpClient http() {
        return http;
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + process.port() + path);
    }

    private Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    /** Everything the agent printed, for a failing test's message. */
    String output() throws IOException {
        return String.join("\n", process.outputLines());
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws Exception {
        process.close();
        Files.deleteIfExists(config);
    }
}
