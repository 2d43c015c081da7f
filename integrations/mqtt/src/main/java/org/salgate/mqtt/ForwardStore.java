package org.salgate.mqtt;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bridges' store-and-forward queue: messages wait here, in order, until the broker (or the
 * InfluxDB server) has taken them. It is an H2 MVStore file (one map from a growing key to the
 * message), so what waits survives a restart of the agent; MVStore commits in the background about once a second, so a
 * hard kill may lose the last second of appended messages.
 *
 * <p>Bounded by a count: when full, the oldest message is dropped to make room. Messages older
 * than the age limit are dropped when their turn comes. Both are counted and logged.
 */
public final class ForwardStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ForwardStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Log an overflow at the first dropped message and then once per this many. */
    private static final long LOG_EVERY = 1000;

    /** A message waiting to be published. */
    public record Entry(long key, String topic, byte[] payload, long storedAtMillis) {}

    /** The stored form; the payload is UTF-8 JSON or text, kept as a string. */
    private record Stored(@JsonProperty("topic") String topic, @JsonProperty("payload") String payload,
                          @JsonProperty("at") long at) {}

    private final MVStore store;
    private final MVMap<Long, String> queue;
    private final long maxMessages;
    private final Duration maxAge;
    private final Clock clock;
    private final AtomicLong nextKey;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong expired = new AtomicLong();

    private ForwardStore(MVStore store, long maxMessages, Duration maxAge, Clock clock) {
        this.store = store;
        this.queue = store.openMap("queue");
        this.maxMessages = maxMessages;
        this.maxAge = maxAge;
        this.clock = clock;
        Long last = queue.lastKey();
        this.nextKey = new AtomicLong(last == null ? 0 : last + 1);
    }

    /**
     * Opens (or creates) the store file.
     *
     * @throws IOException when the file cannot be created or is not an MVStore file, or is in use
     */
    public static ForwardStore open(Path file, long maxMessages, Duration maxAge, Clock clock) throws IOException {
        if (maxMessages <= 0) {
            throw new IllegalArgumentException("the store must hold at least one message, got " + maxMessages);
        }
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("the store's age limit must be positive, got " + maxAge);
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            MVStore s = new MVStore.Builder().fileName(file.toString()).open();
            ForwardStore fs = new ForwardStore(s, maxMessages, maxAge, clock);
            if (fs.size() > 0) {
                LOG.info("store {} holds {} messages from before; they are published first", file, fs.size());
            }
            return fs;
        } catch (MVStoreException e) {
            throw new IOException("cannot open the store-and-forward file " + file + " (is another agent using it?): "
                    + e.getMessage(), e);
        }
    }

    /** Appends a message, dropping the oldest when full. */
    public void append(String topic, byte[] payload) {
        String value;
        try {
            value = JSON.writeValueAsString(new Stored(topic, new String(payload, java.nio.charset.StandardCharsets.UTF_8),
                    clock.millis()));
        } catch (IOException e) {
            throw new IllegalStateException("a stored message failed to serialize", e);
        }
        synchronized (this) {
            while (queue.sizeAsLong() >= maxMessages) {
                Long oldest = queue.firstKey();
                if (oldest == null || queue.remove(oldest) == null) {
                    break;
                }
                long n = dropped.incrementAndGet();
                if (n == 1 || n % LOG_EVERY == 0) {
                    LOG.warn("store-and-forward queue full ({} messages): dropped the oldest; {} dropped so far",
                            maxMessages, n);
                }
            }
            queue.put(nextKey.getAndIncrement(), value);
        }
    }

    /** The first message with a key at or after {@code fromKey}, or null. Expired ones on the way are dropped. */
    public Entry next(long fromKey) {
        long now = clock.millis();
        Long key = queue.ceilingKey(fromKey);
        while (key != null) {
            String value = queue.get(key);
            if (value != null) {
                Stored s = read(value);
                if (now - s.at() <= maxAge.toMillis()) {
                    return new Entry(key, s.topic(), s.payload().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            s.at());
                }
                if (queue.remove(key) != null) {
                    long n = expired.incrementAndGet();
                    if (n == 1 || n % LOG_EVERY == 0) {
                        LOG.warn("dropped a message older than the store's age limit ({}); {} expired so far", maxAge,
                                n);
                    }
                }
            }
            key = queue.higherKey(key);
        }
        return null;
    }

    /** The key of the oldest message, or the next key to be given when empty. */
    public long firstKey() {
        Long k = queue.firstKey();
        return k == null ? nextKey.get() : k;
    }

    /** The key the next appended message gets: every waiting message's key is below it. */
    long nextKey() {
        return nextKey.get();
    }

    /** Removes a message the broker has taken. */
    public void remove(long key) {
        queue.remove(key);
    }

    /**
     * Waits up to {@code max} while {@code sending} holds: the sender's server takes what waits
     * and something still does. Looks every 20 ms; an interrupt ends the wait and is kept.
     */
    public static void awaitSent(BooleanSupplier sending, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (sending.getAsBoolean() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** How many messages wait. */
    public long size() {
        return queue.sizeAsLong();
    }

    /** How many messages were dropped because the store was full. */
    public long dropped() {
        return dropped.get();
    }

    /** How many messages were dropped because they waited longer than the age limit. */
    public long expired() {
        return expired.get();
    }

    @Override
    public void close() {
        try {
            store.close();
        } catch (MVStoreException e) {
            LOG.warn("the store-and-forward file did not close cleanly: {}", e.getMessage());
        }
    }

    private static Stored read(String value) {
        try {
            return JSON.readValue(value, Stored.class);
        } catch (IOException e) {
            throw new IllegalStateException("a stored message is not readable: " + e.getMessage(), e);
        }
    }
}
