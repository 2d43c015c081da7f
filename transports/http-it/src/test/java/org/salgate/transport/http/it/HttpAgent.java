package org.salgate.transport.http.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.salgate.agent.Agent;
import org.salgate.agent.AgentBuilder;
import org.salgate.transport.http.HttpTransportProvider;

/** An agent with its default sensors (20 dummy, 8 os) on the HTTP transport, and a way to call it. */
final class HttpAgent implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    private final Agent agent;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpAgent(Agent agent) {
        this.agent = agent;
    }

    static HttpAgent start() throws IOException {
        return start(b -> { });
    }

    static HttpAgent start(Consumer<AgentBuilder> tweak) throws IOException {
        AgentBuilder builder = Agent.builder().transport(HttpTransportProvider.NAME).host("127.0.0.1").port(0)
                .agentId("http-it");
        tweak.accept(builder);
        return new HttpAgent(builder.start());
    }

    int port() {
        return agent.port();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    HttpResponse<String> get(String path, Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).GET();
        headers.forEach(request::header);
        return send(request);
    }

    HttpResponse<String> post(String path, String contentType, String body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<String> delete(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).DELETE());
    }

    HttpClient client() {
        return http;
    }

    static JsonNode json(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body());
    }

    @Override
    public void close() {
        agent.close();
    }
}
