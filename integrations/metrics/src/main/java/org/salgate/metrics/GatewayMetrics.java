package org.salgate.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.salgate.transport.ServerHandler;

/**
 * An agent's metrics in a Prometheus registry (Micrometer). What passes between the agent and its
 * sessions is counted by wrapping the agent's {@link ServerHandler} with {@link #instrument};
 * figures the agent keeps itself (streams, queued requests) or that an extension keeps (the MQTT
 * bridge's queue) are registered as gauges and function counters read at scrape time.
 *
 * <p>Meters kept here, as Prometheus names them: {@code salgate_sessions{transport}},
 * {@code salgate_sessions_opened_total{transport}},
 * {@code salgate_requests_total{transport,operation,result}},
 * {@code salgate_readings_delivered_total{transport}}, {@code salgate_events_delivered_total{transport}},
 * {@code salgate_received_bytes_total{transport}} and {@code salgate_sent_bytes_total{transport}} (encoded
 * messages, as the sessions count them), {@code salgate_queued_bytes{transport}} (waiting for clients
 * now); plus what the agent registers with {@link #gauge}, {@link #counter} and {@link #counters}.
 */
public final class GatewayMetrics {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<String, AtomicInteger> openSessions = new ConcurrentHashMap<>();
    /** Run before each scrape: register the meters of keys that appeared since the last one. */
    private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();
    /** What the function counters read: the registry holds it weakly, so a lambda would be collected. */
    private final List<Supplier<Number>> counted = new CopyOnWriteArrayList<>();

    /**
     * Wraps the agent's handler for one door (a transport, or an in-process bridge such as
     * {@code mqtt}) so that its sessions, requests, readings and events are counted under that name.
     */
    public ServerHandler instrument(String transport, ServerHandler handler) {
        AtomicInteger open = openSessions.computeIfAbsent(transport, t -> {
            AtomicInteger n = new AtomicInteger();
            Gauge.builder("salgate.sessions", n, AtomicInteger::get).description("Open sessions")
                    .tag("transport", t).register(registry);
            return n;
        });
        MeteredHandler metered = new MeteredHandler(handler, transport, this, open);
        FunctionCounter.builder("salgate.received.bytes", metered, MeteredHandler::bytesReceived)
                .description("Bytes of encoded messages received from clients (no framing or TLS; 0 where"
                        + " sessions take messages unencoded: REST calls, typed gRPC calls, in-process bridges)")
                .tag("transport", transport).register(registry);
        FunctionCounter.builder("salgate.sent.bytes", metered, MeteredHandler::bytesSent)
                .description("Bytes of encoded messages sent or queued to clients (no framing or TLS; 0 where"
                        + " sessions take messages unencoded)")
                .tag("transport", transport).register(registry);
        Gauge.builder("salgate.queued.bytes", metered, MeteredHandler::queuedBytes)
                .description("Bytes waiting in the open sessions' outbound queues (estimated for unencoded ones)")
                .tag("transport", transport).register(registry);
        return metered;
    }

    /** A value read at each scrape, such as a queue's length. */
    public void gauge(String name, String description, Supplier<Number> value) {
        Gauge.builder(name, value).description(description).register(registry);
    }

    /** A count kept elsewhere and read at each scrape; it must only grow. */
    public void counter(String name, String description, Supplier<Number> value) {
        counted.add(value);
        FunctionCounter.builder(name, value, v -> v.get().doubleValue()).description(description).register(registry);
    }

    /**
     * Counts kept elsewhere by key, read at each scrape: one counter per key, tagged
     * {@code tag=key}, registered at the first scrape that finds the key. The counts must only grow
     * and a key, once seen, must stay.
     */
    public void counters(String name, String description, String tag, Supplier<Map<String, ? extends Number>> values) {
        Map<String, Number> latest = new ConcurrentHashMap<>();
        beforeScrape.add(() -> values.get().forEach((key, n) -> {
            if (latest.put(key, n) == null) {
                FunctionCounter.builder(name, latest, m -> m.getOrDefault(key, 0).doubleValue())
                        .description(description).tag(tag, key).register(registry);
            }
        }));
    }

    /** The Prometheus text exposition of every meter. */
    public synchronized String scrape() {
        beforeScrape.forEach(Runnable::run);
        return registry.scrape();
    }

    void sessionOpened(String transport) {
        Counter.builder("salgate.sessions.opened").description("Sessions opened").tag("transport", transport)
                .register(registry).increment();
    }

    void request(String transport, String operation, String result) {
        Counter.builder("salgate.requests").description("Requests answered, by operation and result")
                .tag("transport", transport).tag("operation", operation).tag("result", result)
                .register(registry).increment();
    }

    void readingDelivered(String transport) {
        Counter.builder("salgate.readings.delivered").description("Stream readings handed to sessions")
                .tag("transport", transport).register(registry).increment();
    }

    void eventDelivered(String transport) {
        Counter.builder("salgate.events.delivered").description("Event notices handed to sessions")
                .tag("transport", transport).register(registry).increment();
    }
}
