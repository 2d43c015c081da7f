package org.salgate.influx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.mqtt.ForwardStore;

/**
 * The writer against a local HTTP server that answers as InfluxDB does when things go wrong:
 * gzip bodies, retries of 5xx, 4xx refusals with InfluxDB's error text. The real InfluxDB is in
 * integrations/influx-it.
 */
class InfluxWriterTest {

    /** What the fake server received: the request line, the headers that matter, the unzipped body. */
    record Request(String uri, String encoding, String authorization, String body) {}

    @TempDir
    Path dir;

    private final Queue<Request> received = new ConcurrentLinkedQueue<>();
    /** The statuses to answer, in order; 204 once they run out. */
    private final Queue<Integer> answers = new ConcurrentLinkedQueue<>();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private HttpServer server;

    @AfterEach
    void closeAll() throws Exception {
        Collections.reverse(toClose);
        for (AutoCloseable c : toClose) {
            c.close();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    private int startServer(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", this::answer);
        server.start();
        return server.getAddress().getPort();
    }

    private void answer(HttpExchange x) throws IOException {
        String encoding = x.getRequestHeaders().getFirst("Content-Encoding");
        byte[] raw;
        try (InputStream in = "gzip".equals(encoding) ? new GZIPInputStream(x.getRequestBody()) : x.getRequestBody()) {
            raw = in.readAllBytes();
        }
        received.add(new Request(x.getRequestURI().toString(), encoding,
                x.getRequestHeaders().getFirst("Authorization"), new String(raw, StandardCharsets.UTF_8)));
        Integer status = answers.poll();
        int code = status == null ? 204 : status;
        byte[] body = code == 204 ? new byte[0]
                : ("{\"error\":\"" + (code / 100 == 4 ? "partial write: field type conflict: input field \\\"value\\\""
                        + " on measurement \\\"salgate\\\" is type string, already exists as type float"
                        : "timeout") + "\"}").getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(code, code == 204 ? -1 : body.length);
        if (code != 204) {
            x.getResponseBody().write(body);
        }
        x.close();
    }

    private InfluxWriter writer(InfluxConfig config, ForwardStore store) {
        InfluxWriter w = new InfluxWriter(config, store);
        toClose.add(w);
        w.start();
        return w;
    }

    private ForwardStore store() throws IOException {
        ForwardStore s = ForwardStore.open(dir.resolve("influx.mv.db"), 1000, Duration.ofHours(1), Clock.systemUTC());
        toClose.add(s);
        return s;
    }

    private static InfluxConfig.Builder config(int port) {
        return InfluxConfig.builder("http://127.0.0.1:" + port).database("lab").linger(Duration.ofMillis(50))
                .retry(Duration.ofMillis(50), Duration.ofMillis(200));
    }

    private static void append(ForwardStore store, InfluxWriter w, int from, int to) {
        for (int i = from; i < to; i++) {
            store.append("", ("m v=" + i + "i " + i).getBytes(StandardCharsets.UTF_8));
            w.queued();
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited 10 s for " + what);
            }
            Thread.sleep(10);
        }
    }

    private List<String> linesReceived() {
        List<String> lines = new ArrayList<>();
        for (Request r : received) {
            lines.addAll(List.of(r.body().split("\n")));
        }
        return lines;
    }

    @Test
    void batchesAreGzippedLinesPostedToTheV1WriteUrlWithBasicAuth() throws Exception {
        int port = startServer(0);
        ForwardStore store = store();
        InfluxWriter w = writer(config(port).batchSize(4).credentials("ann", "secret").build(), store);
        append(store, w, 0, 10);
        await(() -> w.written() == 10, "10 points written");
        assertEquals(0, store.size());
        Request first = received.peek();
        assertEquals("/write?db=lab&precision=u", first.uri());
        assertEquals("gzip", first.encoding());
        assertEquals("Basic YW5uOnNlY3JldA==", first.authorization());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add("m v=" + i + "i " + i);
        }
        assertEquals(expected, linesReceived());
        assertTrue(received.stream().allMatch(r -> r.body().split("\n").length <= 4), "no batch above 4 points");
    }

    @Test
    void v2WritesGoToTheBucketWithTheToken() throws Exception {
        int port = startServer(0);
        ForwardStore store = store();
        InfluxWriter w = writer(InfluxConfig.builder("http://127.0.0.1:" + port + "/").bucket("my org", "b1")
                .token("t0k3n").precision(org.salgate.mqtt.LineProtocol.Precision.NS).linger(Duration.ZERO).build(),
                store);
        append(store, w, 0, 1);
        await(() -> w.written() == 1, "the point written");
        assertEquals("/api/v2/write?org=my+org&bucket=b1&precision=ns", received.peek().uri());
        assertEquals("Token t0k3n", received.peek().authorization());
    }

    @Test
    void serverErrorsAreRetriedUntilTheBatchIsTakenOnce() throws Exception {
        answers.addAll(List.of(503, 500, 429));
        int port = startServer(0);
        ForwardStore store = store();
        InfluxWriter w = writer(config(port).batchSize(100).build(), store);
        append(store, w, 0, 5);
        await(() -> w.written() == 5, "5 points written");
        assertEquals(4, received.size(), "three failed tries and the one that took it");
        assertEquals(0, w.refused());
        assertEquals(0, store.size());
    }

    @Test
    void refusedBatchIsDroppedCountedAndNotSentAgain() throws Exception {
        answers.add(400);
        int port = startServer(0);
        ForwardStore store = store();
        InfluxWriter w = writer(config(port).batchSize(100).build(), store);
        append(store, w, 0, 3);
        await(() -> w.refused() == 3, "3 points refused");
        assertEquals(0, store.size());
        append(store, w, 3, 4);
        await(() -> w.written() == 1, "the next point written");
        assertEquals(2, received.size(), "the refused batch was not sent again");
        assertEquals(List.of("m v=0i 0", "m v=1i 1", "m v=2i 2", "m v=3i 3"), linesReceived());
    }

    @Test
    void pointsWaitInTheStoreWhileNothingListensAndGoOnceItDoes() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        ForwardStore store = store();
        InfluxWriter w = writer(config(port).batchSize(100).build(), store);
        append(store, w, 0, 20);
        Thread.sleep(500);
        assertEquals(20, store.size());
        assertEquals(0, w.written());
        startServer(port);
        await(() -> w.written() == 20, "20 points written once the server listens");
        assertEquals(20, linesReceived().size());
    }

    @Test
    void errorTextIsInfluxDbsOwnCutShort() {
        assertEquals("{\"error\":\"database not found: \\\"x\\\"\"}",
                InfluxWriter.errorText("{\"error\":\"database not found: \\\"x\\\"\"}\n"));
        assertEquals("no error text", InfluxWriter.errorText(""));
        assertTrue(InfluxWriter.errorText("x".repeat(2000)).endsWith("..."));
    }
}
