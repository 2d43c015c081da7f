package org.salgate.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import com.sun.net.httpserver.HttpsParameters;
import org.salgate.transport.tls.TlsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@link GatewayMetrics#scrape()} at {@code GET /metrics} in the Prometheus text format (the
 * JDK's HTTP server): over HTTPS when given a TLS context, and only to requests whose
 * {@code Authorization: Bearer} token the agent admits when it requires tokens, as its own port does.
 */
public final class MetricsServer implements AutoCloseable {

    /** The Prometheus text exposition format's content type. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Listens on {@code host:port} (port 0 picks a free one), plain HTTP, open to every request.
     *
     * @throws IOException when the address cannot be bound
     */
    public static MetricsServer start(String host, int port, GatewayMetrics metrics) throws IOException {
        return start(host, port, metrics, null, token -> true);
    }

    /**
     * Listens on {@code host:port} (port 0 picks a free one).
     *
     * @param tls the server's TLS config (its key, certificate and protocols), or null for plain HTTP
     * @param admits whether a request's bearer token (the empty string when it has none) may read
     *               the metrics; others are answered 401
     * @throws IOException when the address cannot be bound
     */
    public static MetricsServer start(String host, int port, GatewayMetrics metrics, TlsConfig tls,
                                      Predicate<String> admits) throws IOException {
        HttpServer server;
        try {
            InetSocketAddress address = new InetSocketAddress(host, port);
            if (tls == null) {
                server = HttpServer.create(address, 16);
            } else {
                HttpsServer https = HttpsServer.create(address, 16);
                https.setHttpsConfigurator(new HttpsConfigurator(tls.sslContext()) {
                    @Override
                    public void configure(HttpsParameters params) {
                        params.setProtocols(tls.protocols());
                    }
                });
                server = https;
            }
        } catch (IOException e) {
            throw new IOException("the metrics endpoint cannot listen on " + host + ":" + port + ": " + e.getMessage(),
                    e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sal-metrics-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", exchange -> answer(exchange, metrics, admits));
        server.start();
        LOG.info("metrics for Prometheus at {}://{}:{}/metrics{}", tls == null ? "http" : "https", host,
                server.getAddress().getPort(), admits.test("") ? "" : " (a bearer token is required)");
        return new MetricsServer(server, executor);
    }

    private static void answer(HttpExchange exchange, GatewayMetrics metrics, Predicate<String> admits)
            throws IOException {
        try (exchange) {
            if (!admits.test(bearerToken(exchange))) {
                byte[] body = ("the metrics need a token the agent accepts: send it as 'Authorization: Bearer "
                        + "<token>'\n").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"salgate\"");
                exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
                exchange.sendResponseHeaders(401, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
                return;
            }
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (!exchange.getRequestURI().getPath().equals("/metrics")) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            if (exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** The token of the request's {@code Authorization: Bearer} header, or the empty string. */
    private static String bearerToken(HttpExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return "";
        }
        return header.substring(7).trim();
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
