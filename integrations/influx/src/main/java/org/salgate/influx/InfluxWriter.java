package org.salgate.influx;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.salgate.mqtt.ForwardStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the InfluxDB writer: one thread takes the oldest lines of the store in batches
 * (up to the batch size, or fewer once the oldest has waited the linger time), posts each batch
 * gzipped, and removes it from the store when InfluxDB has taken it (2xx). A server error (5xx, 429,
 * 408) or no answer keeps the batch and tries it again after a wait that doubles up to the longest;
 * any other 4xx means InfluxDB refuses those points (malformed, a field type conflict, no such
 * database, bad credentials): the batch is dropped, counted and logged with InfluxDB's own message,
 * as sending it again would be refused again.
 */
final class InfluxWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InfluxWriter.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** The longest part of InfluxDB's error text put in a log line. */
    private static final int MAX_ERROR_CHARS = 500;

    private final InfluxConfig config;
    private final ForwardStore store;
    private final HttpClient http;
    private final String authorization;
    private final Thread sender;
    private final Semaphore wake = new Semaphore(0);
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean running = true;
    private volatile boolean draining;
    private volatile boolean reachable;

    InfluxWriter(InfluxConfig config, ForwardStore store) {
        this.config = config;
        this.store = store;
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER);
        if (config.tls() != null) {
            b.sslContext(config.tls().sslContext());
        }
        this.http = b.build();
        this.authorization = authorization(config);
        this.sender = new Thread(this::sendLoop, "sal-influx-write");
        this.sender.setDaemon(true);
    }

    private static String authorization(InfluxConfig config) {
        if (config.token() != null) {
            return "Token " + config.token();
        }
        if (config.username() != null) {
            String pair = config.username() + ":" + (config.password() == null ? "" : config.password());
            return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
        }
        return null;
    }

    void start() {
        sender.start();
    }

    /** A line was appended to the store. */
    void queued() {
        wake.release();
    }

    /** Points InfluxDB has taken. */
    long written() {
        return written.get();
    }

    /** Points InfluxDB refused (a 4xx answer to their batch). */
    long refused() {
        return refused.get();
    }

    /** Whether the last write reached InfluxDB and it took the batch or refused it. */
    boolean isReachable() {
        return reachable;
    }

    private void sendLoop() {
        long backoffMs = config.retryMin().toMillis();
        while (running) {
            try {
                ForwardStore.Entry first = store.next(store.firstKey());
                if (first == null) {
                    awaitWork(200);
                    continue;
                }
                long lingerLeft = first.storedAtMillis() + config.linger().toMillis() - System.currentTimeMillis();
                if (store.size() < config.batchSize() && lingerLeft > 0 && !draining) {
                    awaitWork(Math.min(lingerLeft, 200));
                    continue;
                }
                List<ForwardStore.Entry> batch = batch(first);
                if (post(batch)) {
                    backoffMs = config.retryMin().toMillis();
                } else {
                    sleep(backoffMs);
                    backoffMs = Math.min(backoffMs * 2, config.retryMax().toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("the InfluxDB writer failed; it goes on with the next batch", e);
            }
        }
    }

    private List<ForwardStore.Entry> batch(ForwardStore.Entry first) {
        List<ForwardStore.Entry> batch = new ArrayList<>(Math.min(config.batchSize(), 1024));
        ForwardStore.Entry e = first;
        while (e != null) {
            batch.add(e);
            if (batch.size() >= config.batchSize()) {
                break;
            }
            e = store.next(e.key() + 1);
        }
        return batch;
    }

    /**
     * Posts a batch; true when it is settled (taken, or refused for good), false when it must be
     * tried again.
     */
    private boolean post(List<ForwardStore.Entry> batch) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(config.writeUri()).timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "text/plain; charset=utf-8").header("Content-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(gzip(batch)));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        CompletableFuture<HttpResponse<String>> sent = http.sendAsync(request.build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        HttpResponse<String> response;
        try {
            response = awaitResponse(sent);
        } catch (ExecutionException e) {
            failed("cannot reach InfluxDB " + config.url() + ": " + describe(e.getCause()), batch.size());
            return false;
        }
        if (response == null) {
            return false;
        }
        int status = response.statusCode();
        if (status / 100 == 2) {
            settle(batch);
            written.addAndGet(batch.size());
            if (failures.getAndSet(0) > 0 || !reachable) {
                LOG.info("InfluxDB {} takes points; {} wait", config.target(), store.size());
            }
            reachable = true;
            return true;
        }
        String text = errorText(response.body());
        if (status == 429 || status == 408 || status / 100 == 5) {
            failed("InfluxDB " + config.url() + " answered " + status + " (" + text + ")", batch.size());
            return false;
        }
        reachable = true;
        settle(batch);
        long n = refused.addAndGet(batch.size());
        LOG.error("InfluxDB {} refused a batch of {} points with {}: {}; {} points refused so far{}", config.target(),
                batch.size(), status, text, n, hint(status));
        return true;
    }

    /**
     * The answer, or null when the writer stops first (the thread is never interrupted: an interrupt
     * would close the store's file channel).
     */
    private HttpResponse<String> awaitResponse(CompletableFuture<HttpResponse<String>> sent)
            throws ExecutionException, InterruptedException {
        while (true) {
            try {
                return sent.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (!running) {
                    sent.cancel(true);
                    return null;
                }
            }
        }
    }

    private void settle(List<ForwardStore.Entry> batch) {
        for (ForwardStore.Entry e : batch) {
            store.remove(e.key());
        }
    }

    private void failed(String why, int batchSize) {
        reachable = false;
        long n = failures.incrementAndGet();
        if (n == 1) {
            LOG.warn("{}; the batch of {} points is kept and tried again, waits doubling up to {} s; {} points wait",
                    why, batchSize, config.retryMax().toSeconds(), store.size());
        } else {
            LOG.debug("InfluxDB write attempt {} failed: {}", n, why);
        }
    }

    private static String hint(int status) {
        return switch (status) {
            case 401, 403 -> "; check the credentials (--influx-token-file, or --influx-username and"
                    + " --influx-password-file)";
            case 404 -> "; check that the database (--influx-db) or the organization and bucket exist";
            default -> "";
        };
    }

    private static String describe(Throwable e) {
        if (e instanceof java.net.ConnectException && e.getMessage() == null) {
            return "connection refused";
        }
        String m = e.getMessage();
        return m != null ? m : e.getClass().getSimpleName();
    }

    /** InfluxDB's error text: its JSON {@code {"error":"..."}} (1.x) or {@code {"message":"..."}} (2.x), cut short. */
    static String errorText(String body) {
        String s = body == null ? "" : body.strip();
        if (s.isEmpty()) {
            return "no error text";
        }
        return s.length() > MAX_ERROR_CHARS ? s.substring(0, MAX_ERROR_CHARS) + "..." : s;
    }

    static byte[] gzip(List<ForwardStore.Entry> batch) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            for (ForwardStore.Entry e : batch) {
                out.write(e.payload());
                out.write('\n');
            }
        } catch (IOException e) {
            throw new IllegalStateException("gzip into memory failed", e);
        }
        return bytes.toByteArray();
    }

    private void awaitWork(long ms) throws InterruptedException {
        if (wake.tryAcquire(ms, TimeUnit.MILLISECONDS)) {
            wake.drainPermits();
        }
    }

    private void sleep(long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (running && System.nanoTime() < deadline) {
            Thread.sleep(Math.min(50, ms));
        }
    }

    /** Stops: writes what waits for up to {@code drain} while InfluxDB takes points; the rest stays in the store. */
    void close(Duration drain) {
        draining = true;
        wake.release();
        ForwardStore.awaitSent(() -> reachable && store.size() > 0, drain);
        running = false;
        wake.release();
        try {
            sender.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (store.size() > 0) {
            LOG.info("{} points stay in the InfluxDB store for the next start", store.size());
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(2));
    }
}
