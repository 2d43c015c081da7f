package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.salgate.agent.Agent;
import org.salgate.metrics.MetricsExtension;
import org.salgate.client.SalClient;
import org.salgate.client.SensorStream;
import org.salgate.client.StreamListener;
import org.salgate.metrics.GatewayMetrics;
import org.salgate.metrics.MetricsServer;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.agent.session.Tokens;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.model.Reading;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;

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
    void aSecuredAgentServesItsMetricsOverTlsAndOnlyWithAToken() throws Exception {
        String reader = "metrics-reader-token-0123456789";
        Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1", "localhost"), 1);
        GatewayMetrics metrics = new GatewayMetrics();
        AtomicReference<MetricsServer> endpoint = new AtomicReference<>();
        try (Agent agent = Agent.builder().port(0).tls(TlsConfig.server(identity))
                .tokens(Tokens.parse(List.of(reader + " reader"), "test tokens"))
                .decorateHandler(metrics::instrument)
                .extension(MetricsExtension.endpoint(metrics, "127.0.0.1", 0, endpoint::set)).start()) {
            int port = endpoint.get().port();
            HttpClient https = HttpClient.newBuilder()
                    .sslContext(TlsConfig.clientTrusting(identity.chain(), "the test agent's certificate").sslContext())
                    .build();
            URI uri = URI.create("https://127.0.0.1:" + port + "/metrics");

            try {
                HttpResponse<String> plain = get(port);
                fail("plain HTTP was answered " + plain.statusCode() + " by a TLS agent's metrics endpoint");
            } catch (IOException expected) {
                // the endpoint speaks TLS only
            }
            HttpResponse<String> noToken = https.send(HttpRequest.newBuilder(uri).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, noToken.statusCode(), noToken.body());
            assertTrue(noToken.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
            assertTrue(noToken.body().contains("Authorization: Bearer"), noToken.body());
            HttpResponse<String> wrongToken = https.send(HttpRequest.newBuilder(uri)
                    .header("Authorization", "Bearer not-a-token-of-this-agent").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, wrongToken.statusCode());
            HttpResponse<String> withToken = https.send(HttpRequest.newBuilder(uri)
                    .header("Authorization", "Bearer " + reader).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, withToken.statusCode(), withToken.body());
            assertTrue(withToken.body().contains("salgate_sessions"), withToken.body());
        }
    }

    @Test
    void theFiguresFollowRealTraffic() throws Exception {
        GatewayMetrics metrics = new GatewayMetrics();
        AtomicReference<MetricsServer> endpoint = new AtomicReference<>();
        PlatformConfig platform = new PlatformConfig(List.of(
                new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "2")),
                new ProtocolConfig("failing", "failing", "virtual", Map.of())));
        try (Agent agent = Agent.builder().port(0).platform(platform).decorateHandler(metrics::instrument)
                .extension(MetricsExtension.endpoint(metrics, "127.0.0.1", 0, endpoint::set)).start()) {
            int port = endpoint.get().port();
            HttpResponse<String> before = get(port);
            assertEquals(200, before.statusCode());
            assertTrue(before.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
            assertEquals(0, value(before.body(), "salgate_sessions_opened_total"));

            String during;
            try (SalClient client = SalClient.builder().transport("netty").port(agent.port()).connect()) {
                String beforeList = get(port).body();
                int sensors = client.listSensors().get(10, TimeUnit.SECONDS).size();
                String afterList = get(port).body();
                // The list request and its answer, with every sensor in it, crossed the session.
                assertTrue(value(afterList, "salgate_received_bytes_total", "transport=\"netty\"")
                        > value(beforeList, "salgate_received_bytes_total", "transport=\"netty\""), afterList);
                assertTrue(value(afterList, "salgate_sent_bytes_total", "transport=\"netty\"")
                        >= value(beforeList, "salgate_sent_bytes_total", "transport=\"netty\"") + sensors * 5L,
                        afterList);
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
            // The closed session's bytes stay counted.
            assertTrue(value(after, "salgate_sent_bytes_total", "transport=\"netty\"")
                    >= value(during, "salgate_sent_bytes_total", "transport=\"netty\""), after);
            assertEquals(0, value(after, "salgate_readings_skipped_total"), after);
            assertEquals(0, value(after, "salgate_readings_dropped_total"), after);
        }
    }

    /**
     * A client whose stream listener stops taking readings, behind two streams of 80 KB readings every
     * millisecond: one with the block policy, one with drop-oldest. The agent's outbound queue for it
     * fills, then readings are skipped and dropped, and the endpoint shows all three.
     */
    @Test
    void aStalledClientMovesQueuedSkippedAndDroppedReadings() throws Exception {
        GatewayMetrics metrics = new GatewayMetrics();
        AtomicReference<MetricsServer> endpoint = new AtomicReference<>();
        PlatformConfig platform = new PlatformConfig(List.of(
                new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "2"))));
        try (Agent agent = Agent.builder().port(0).platform(platform).decorateHandler(metrics::instrument)
                .extension(MetricsExtension.endpoint(metrics, "127.0.0.1", 0, endpoint::set)).start();
             SalClient client = SalClient.builder().transport("netty").port(agent.port()).connect()) {
            int port = endpoint.get().port();
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch stalled = new CountDownLatch(1);
            // The listener runs on the client's I/O thread: it holds it only once both streams are set
            // up, or the second set-up's answer would wait behind the first stream's held reading.
            CountDownLatch armed = new CountDownLatch(1);
            StreamListener holding = new StreamListener() {
                @Override
                public void onReading(Reading r) {
                    if (armed.getCount() > 0) {
                        return;
                    }
                    stalled.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            Map<String, String> large = Map.of("size", "81920");
            SensorStream blocking = client.stream("DUMMY_0", "payload", large, 1, SlowConsumerPolicy.BLOCK, holding)
                    .get(10, TimeUnit.SECONDS);
            SensorStream dropping = client.stream("DUMMY_1", "payload", large, 1, SlowConsumerPolicy.DROP_OLDEST,
                    holding).get(10, TimeUnit.SECONDS);
            armed.countDown();
            assertTrue(stalled.await(20, TimeUnit.SECONDS), "the client never got a reading");

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            String body = get(port).body();
            while (value(body, "salgate_readings_skipped_total") == 0 || value(body, "salgate_readings_dropped_total") == 0
                    || value(body, "salgate_queued_bytes", "transport=\"netty\"") == 0) {
                if (System.nanoTime() >= deadline) {
                    fail("a stalled client moved no figure:\n" + body + "\nthe agent's threads (it runs in this JVM):\n"
                            + threadDump());
                }
                Thread.sleep(50);
                body = get(port).body();
            }
            // The stalled session stays unwritable, so what waits for it stays above the low-water mark.
            assertTrue(value(body, "salgate_queued_bytes", "transport=\"netty\"")
                    >= ServerOptions.DEFAULT_WRITE_LOW_WATER_BYTES, body);

            release.countDown();
            blocking.stop().get(30, TimeUnit.SECONDS);
            dropping.stop().get(30, TimeUnit.SECONDS);
            // Once both streams have ended, the agent's totals are the sums of what the two streams' ends reported.
            StreamCounts b = blocking.counts().get(30, TimeUnit.SECONDS);
            StreamCounts d = dropping.counts().get(30, TimeUnit.SECONDS);
            String after = get(port).body();
            assertEquals(b.skipped() + d.skipped(), value(after, "salgate_readings_skipped_total"), after + b + d);
            assertEquals(b.dropped() + d.dropped(), value(after, "salgate_readings_dropped_total"), after + b + d);
            assertTrue(b.skipped() > 0 && d.dropped() > 0, "the stalled streams lost nothing: " + b + d);
        }
    }

    /** Every thread's stack, for a failure that stopped something. */
    private static String threadDump() {
        StringBuilder out = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            out.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
            for (StackTraceElement frame : stack) {
                out.append("    at ").append(frame).append('\n');
            }
        });
        return out.toString();
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
