package org.salgate.mqtt;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What every bridge that forwards an agent's readings is configured with, whatever it forwards to:
 * the streams it sets up on the agent, a file of further streams, and the bounded on-disk
 * {@link ForwardStore} that holds what could not be sent yet. The MQTT bridge's and the InfluxDB
 * writer's configurations extend it, each with what its own server needs.
 */
public abstract class ForwardingConfig {

    /** Entries the store holds by default (about an hour of 28 sensors at one reading/s). */
    public static final long DEFAULT_MAX_STORED = 100_000;
    /** How long an entry may wait in the store by default before it is dropped. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofHours(24);

    private final List<StreamSpec> streams;
    private final Path streamsFile;
    private final Path storeFile;
    private final Path storeDirectory;
    private final long maxStored;
    private final Duration maxAge;

    protected ForwardingConfig(Builder<?> b) {
        this.streams = List.copyOf(b.streams);
        this.streamsFile = b.streamsFile;
        this.storeFile = b.storeFile;
        this.storeDirectory = b.storeDirectory;
        this.maxStored = b.maxStored;
        this.maxAge = b.maxAge;
    }

    public List<StreamSpec> streams() {
        return streams;
    }

    /** The file of further streams, read again every second while the bridge runs, or null for none. */
    public Path streamsFile() {
        return streamsFile;
    }

    /** The store file, or null for one named by the bridge in {@link #storeDirectory()}. */
    public Path storeFile() {
        return storeFile;
    }

    /** Where the store goes when no {@link #storeFile()} is given (default: ~/.salgate). */
    public Path storeDirectory() {
        return storeDirectory;
    }

    public long maxStored() {
        return maxStored;
    }

    public Duration maxAge() {
        return maxAge;
    }

    /** Whether the bridge must follow the agent's events to keep its streams: some are patterns, or may become so. */
    public boolean followsEvents() {
        return streamsFile != null || streams.stream().anyMatch(StreamSpec::isPattern);
    }

    /**
     * Opens the store: the {@link #storeFile()} given, else {@code defaultName} in the
     * {@link #storeDirectory()}.
     *
     * @throws IOException when the file cannot be opened or is not a store
     */
    public ForwardStore openStore(String defaultName) throws IOException {
        Path file = storeFile != null ? storeFile : storeDirectory.resolve(defaultName);
        return ForwardStore.open(file, maxStored, maxAge, Clock.systemUTC());
    }

    /**
     * Sets what every forwarding bridge has; every setter checks its argument.
     *
     * @param <B> the bridge's own builder, which the setters return
     */
    public abstract static class Builder<B extends Builder<B>> {
        private final String server;
        private final List<StreamSpec> streams = new ArrayList<>();
        private Path streamsFile;
        private Path storeFile;
        private Path storeDirectory = Path.of(System.getProperty("user.home"), ".salgate");
        private long maxStored = DEFAULT_MAX_STORED;
        private Duration maxAge = DEFAULT_MAX_AGE;

        /** @param server what the bridge forwards to, as its error messages name it ("MQTT", "InfluxDB") */
        protected Builder(String server) {
            this.server = server;
        }

        /** This builder, as the bridge's own type. */
        protected abstract B self();

        public B stream(StreamSpec spec) {
            this.streams.add(Objects.requireNonNull(spec, "spec"));
            return self();
        }

        /**
         * A file of further streams, one {@code SENSOR[:COMMAND]@INTERVAL} a line (see
         * {@link StreamSpec#readFile}); the bridge reads it again every second and starts and stops
         * streams as its lines change.
         */
        public B streamsFile(Path file) {
            this.streamsFile = file;
            return self();
        }

        public B storeFile(Path file) {
            this.storeFile = file;
            return self();
        }

        /** The directory of the store file the bridge names, when no store file is given. */
        public B storeDirectory(Path dir) {
            this.storeDirectory = Objects.requireNonNull(dir, "dir");
            return self();
        }

        /** Entries the store holds before it drops the oldest. */
        public B maxStored(long n) {
            if (n <= 0) {
                throw new IllegalArgumentException("the " + server + " store must hold at least one entry, got " + n);
            }
            this.maxStored = n;
            return self();
        }

        /** How long an entry may wait in the store before it is dropped. */
        public B maxAge(Duration age) {
            if (age.isNegative() || age.isZero()) {
                throw new IllegalArgumentException("the " + server + " store's age limit must be positive, got " + age);
            }
            this.maxAge = age;
            return self();
        }

        /**
         * Checks the first and the longest wait of a back-off that doubles in between.
         *
         * @throws IllegalArgumentException unless 0 &lt; min &lt;= max
         */
        protected static void checkBackoff(String what, Duration min, Duration max) {
            if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
                throw new IllegalArgumentException(what + " waits need 0 < min <= max, got " + min + " and " + max);
            }
        }
    }
}
