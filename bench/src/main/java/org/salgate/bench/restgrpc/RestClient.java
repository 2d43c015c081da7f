package org.salgate.bench.restgrpc;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The HTTP transport's REST/JSON API through the JDK's HTTP client: HTTP/1.1 with keep-alive, one
 * connection, JSON answers parsed with Jackson into a tree.
 */
final class RestClient implements ApiClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final HttpRequest list;
    private final HttpRequest read;
    private final HttpRequest describe;

    RestClient(int port) {
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        String base = "http://127.0.0.1:" + port + "/api/sensors";
        list = HttpRequest.newBuilder(URI.create(base)).timeout(TIMEOUT).header("Accept", "application/json").GET()
                .build();
        read = HttpRequest.newBuilder(URI.create(base + "/" + Operation.SENSOR + "/commands/" + Operation.COMMAND))
                .timeout(TIMEOUT).header("Accept", "application/json").POST(HttpRequest.BodyPublishers.noBody())
                .build();
        describe = HttpRequest.newBuilder(URI.create(base + "/" + Operation.SENSOR)).timeout(TIMEOUT)
                .header("Accept", "application/xml").GET().build();
    }

    @Override
    public int call(Operation op) throws IOException, InterruptedException {
        return switch (op) {
            case LIST -> {
                JsonNode sensors = json(send(list));
                if (!sensors.isArray()) {
                    throw new IOException("GET /api/sensors answered no JSON array");
                }
                yield sensors.size();
            }
            case READ -> {
                JsonNode reading = json(send(read));
                if (!Operation.SENSOR.equals(reading.path("sensor").asText()) || !reading.has("value")) {
                    throw new IOException("the read answered no reading of " + Operation.SENSOR + ": " + reading);
                }
                yield 1;
            }
            case DESCRIBE -> send(describe).length();
        };
    }

    private String send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(request.method() + " " + request.uri().getPath() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private static JsonNode json(String body) throws IOException {
        return JSON.readTree(body);
    }

    @Override
    public void close() {
        // the JDK's client (Java 17) has no close; its connection goes when the client is collected
    }
}
