package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.client.SensorStream;
import org.salgate.client.StreamListener;
import org.salgate.metrics.GatewayMetrics;
import org.salgate.metrics.MetricsServer;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.wire.Reading;

/** The Prometheus endpoint of a real agent, scraped over HTTP before, during and after real client traffic. */
class MetricsEndpointTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(int port) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The sum of the samples of {@code name} whose labels include every one of {@code labels} ({@code k="v"}). */
    static double value(String scrape, String name, String... labels) {
        double sum = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String series = line.substring(0, space);
            boolean all = true;
            for (String l : labels) {
                all &= series.contains(l);
            }
            if (all) {
                sum += Double.parseDouble(line.substring(space + 1));
            }
        }
        return sum;
    }

    @Test
    void theFiguresFollowRealTraffic() throws Exception {
        GatewayMetrics metrics = new GatewayMetrics();
        AtomicReference<MetricsServer> endpoint = new AtomicReference<>();
        PlatformConfig platform = new PlatformConfig(List.of(
                new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "2")),
                new ProtocolConfig("failing", "failing", "virtual", Map.of())));
        try (Agent agent = Agent.builder().port(0).platform(platform).decorateHandler(metrics::instrument)
                .extension(a -> {
                    metrics.gauge("salgate.streams", "Streams set up or running", a::streamCount);
                    endpoint.set(MetricsServer.start("127.0.0.1", 0, metrics));
                    return endpoint.get();
                }).start()) {
            int port = endpoint.get().port();
            HttpResponse<String> before = get(port);
            assertEquals(200, before.statusCode());
            assertTrue(before.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
            assertEquals(0, value(before.body(), "salgate_sessions_opened_total"));

            String during;
            try (SalClient client = SalClient.builder().transport("netty").port(agent.port()).connect()) {
                assertEquals(Reading.Status.OK, client.execute("DUMMY_0", "read", null).get(10, TimeUnit.SECONDS)
                        .status());
                assertEquals(Reading.Status.ERROR, client.execute("BROKEN_0", "read", null).get(10, TimeUnit.SECONDS)
                        .status());
                try {
                    client.execute("NOPE", "read", null).get(10, TimeUnit.SECONDS);
                } catch (ExecutionException expected) {
                    // an unknown sensor is refused
                }
                CountDownLatch twenty = new CountDownLatch(20);
                SensorStream stream = client.stream("DUMMY_1", "read", null, 10, new StreamListener() {
                    @Override
                    public void onReading(Reading r) {
                        twenty.countDown();
                    }
                }).get(10, TimeUnit.SECONDS);
                assertTrue(twenty.await(20, TimeUnit.SECONDS));
                during = get(port).body();
                stream.stop().get(10, TimeUnit.SECONDS);
            }

            assertEquals(1, value(during, "salgate_sessions", "transport=\"netty\""));
            assertEquals(1, value(during, "salgate_sessions_opened_total", "transport=\"netty\""));
            assertEquals(1, value(during, "salgate_streams"));
            assertTrue(value(during, "salgate_readings_delivered_total", "transport=\"netty\"") >= 20, during);
            assertEquals(2, value(during, "salgate_requests_total", "operation=\"Execute\"", "result=\"OK\""));
            assertEquals(1, value(during, "salgate_requests_total", "operation=\"Execute\"",
                    "result=\"UNKNOWN_SENSOR\""));
            assertEquals(1, value(during, "salgate_requests_total", "operation=\"SetupStream\"", "result=\"OK\""));
            assertEquals(1, value(during, "salgate_plugin_read_errors_total", "sensor=\"BROKEN_0\""));

            String after = awaitSessionsClosed(port);
            assertEquals(0, value(after, "salgate_streams"));
            assertEquals(1, value(after, "salgate_requests_total", "operation=\"StopStream\"", "result=\"OK\""));
        }
    }

    private String awaitSessionsClosed(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String body = get(port).body();
        while (value(body, "salgate_sessions", "transport=\"netty\"") != 0) {
            assertTrue(System.nanoTime() < deadline, "the closed session is still counted:\n" + body);
            Thread.sleep(20);
            body = get(port).body();
        }
        return body;
    }
}
