package org.salgate.transport;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.Codec;
import org.salgate.wire.Codecs;
import org.salgate.wire.Framing;

/**
 * How a server is set up. Made with {@link #builder()}.
 *
 * @param host the address to bind, such as {@code 0.0.0.0} or {@code 127.0.0.1}
 * @param port the port to bind; 0 picks a free one
 * @param codec the codec used after the handshake
 * @param maxFrameBytes the largest frame accepted; a larger one closes its session
 * @param writeHighWaterBytes above this many queued outbound bytes a session is not writable
 * @param writeLowWaterBytes below this many it is writable again
 * @param maxQueuedBytes the most outbound bytes queued for one session; a message that would go past
 *                       it closes the session (its client has stopped reading). What all sessions
 *                       queue together is bounded by {@link Limits#maxBufferedBytes()} as well
 * @param ioThreads I/O threads for transports that have a pool; 0 lets the transport choose
 * @param properties transport-specific settings, documented by each transport
 * @param tls the server's TLS config, or null to serve plain TCP
 * @param limits what one peer and all of them together may cost the server (sessions, timeouts,
 *               buffered bytes)
 */
public record ServerOptions(String host, int port, Codec codec, int maxFrameBytes, int writeHighWaterBytes,
                            int writeLowWaterBytes, long maxQueuedBytes, int ioThreads,
                            Map<String, String> properties, TlsConfig tls, Limits limits) {

    /**
     * The budget of a server's sessions, the same on every transport. The agent's session layer
     * enforces the session count and the timeouts; every byte-stream transport's connections draw
     * on one {@link org.salgate.transport.MemoryBudget} of {@code maxBufferedBytes}, for their unfinished
     * frames and their queued outbound frames alike.
     *
     * @param maxSessions the most sessions served at once; a connection past it has its hello
     *                    answered {@link org.salgate.model.ErrorCode#OVERLOADED} and is closed
     * @param helloTimeout how long a connection may take to complete its hello before it is closed
     * @param idleTimeout how long a session with no stream, no event subscription and no request
     *                    in flight may stay silent before it is closed; {@link Duration#ZERO} for never
     * @param maxBufferedBytes the most bytes all connections together may hold, for frames received
     *                         and not yet whole and for frames queued and not yet written; when it
     *                         would be passed the connection holding the most is closed
     */
    public record Limits(int maxSessions, Duration helloTimeout, Duration idleTimeout, long maxBufferedBytes) {

        /** Default {@code maxSessions}. */
        public static final int DEFAULT_MAX_SESSIONS = 10_000;
        /** Default {@code helloTimeout}. */
        public static final Duration DEFAULT_HELLO_TIMEOUT = Duration.ofSeconds(10);
        /** Default {@code maxBufferedBytes}: 256 MiB, or a quarter of the JVM's maximum heap if that is less. */
        public static final long DEFAULT_MAX_BUFFERED_BYTES =
                Math.min(256L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 4);
        /** Every default: 10,000 sessions, 10 s to say hello, no idle timeout, {@link #DEFAULT_MAX_BUFFERED_BYTES}. */
        public static final Limits DEFAULTS = new Limits(DEFAULT_MAX_SESSIONS, DEFAULT_HELLO_TIMEOUT, Duration.ZERO,
                DEFAULT_MAX_BUFFERED_BYTES);

        public Limits {
            Objects.requireNonNull(helloTimeout, "helloTimeout");
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            if (maxSessions <= 0) {
                throw new IllegalArgumentException("the maximum of sessions (--max-sessions) must be positive, got "
                        + maxSessions);
            }
            if (helloTimeout.isNegative() || helloTimeout.isZero()) {
                throw new IllegalArgumentException("the hello timeout (--hello-timeout-ms) must be positive, got "
                        + helloTimeout.toMillis() + " ms");
            }
            if (idleTimeout.isNegative()) {
                throw new IllegalArgumentException("the idle timeout (--idle-timeout-ms) must be 0 (none) or positive, "
                        + "got " + idleTimeout.toMillis() + " ms");
            }
            if (maxBufferedBytes <= 0) {
                throw new IllegalArgumentException("the bound of buffered bytes (--max-buffered-bytes) must be "
                        + "positive, got " + maxBufferedBytes);
            }
        }

        /** Whether idle sessions are closed. */
        public boolean closesIdleSessions() {
            return !idleTimeout.isZero();
        }

        public Limits withMaxSessions(int n) {
            return new Limits(n, helloTimeout, idleTimeout, maxBufferedBytes);
        }

        public Limits withHelloTimeout(Duration d) {
            return new Limits(maxSessions, d, idleTimeout, maxBufferedBytes);
        }

        /** {@link Duration#ZERO} for no idle timeout. */
        public Limits withIdleTimeout(Duration d) {
            return new Limits(maxSessions, helloTimeout, d, maxBufferedBytes);
        }

        public Limits withMaxBufferedBytes(long n) {
            return new Limits(maxSessions, helloTimeout, idleTimeout, n);
        }
    }

    /** Default high-water mark: room for several 80 KB frames, small enough to bound a slow client. */
    public static final int DEFAULT_WRITE_HIGH_WATER_BYTES = 1024 * 1024;
    public static final int DEFAULT_WRITE_LOW_WATER_BYTES = 512 * 1024;
    /**
     * Default limit of a session's queued bytes: 0 means the high-water mark plus four of the
     * largest frames, room for the answers a client pipelines while its streams fill the queue.
     */
    public static final long DEFAULT_MAX_QUEUED_BYTES = 0;

    public ServerOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(codec, "codec");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        if (maxFrameBytes <= 0) {
            throw new IllegalArgumentException("maxFrameBytes must be positive");
        }
        if (writeLowWaterBytes <= 0 || writeHighWaterBytes < writeLowWaterBytes) {
            throw new IllegalArgumentException("need 0 < writeLowWaterBytes <= writeHighWaterBytes");
        }
        if (maxQueuedBytes == DEFAULT_MAX_QUEUED_BYTES) {
            maxQueuedBytes = defaultMaxQueuedBytes(writeHighWaterBytes, maxFrameBytes);
        }
        if (maxQueuedBytes < writeHighWaterBytes) {
            throw new IllegalArgumentException("maxQueuedBytes (" + maxQueuedBytes
                    + ") must be at least the high-water mark (" + writeHighWaterBytes + ")");
        }
        properties = properties == null ? Map.of() : Map.copyOf(properties);
        if (tls != null && !tls.isServer()) {
            throw new IllegalArgumentException("a server needs a server's TLS config (a key and certificate), not "
                    + tls);
        }
        limits = limits == null ? Limits.DEFAULTS : limits;
    }

    /** The limit of queued bytes used when none is given: the high-water mark plus four of the largest frames. */
    public static long defaultMaxQueuedBytes(int writeHighWaterBytes, int maxFrameBytes) {
        return writeHighWaterBytes + 4L * maxFrameBytes;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder with every default set: 127.0.0.1, port 0, protobuf, 16 MiB frames, 1 MiB/512 KiB marks. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private Codec codec;
        private int maxFrameBytes = Framing.DEFAULT_MAX_FRAME_BYTES;
        private int high = DEFAULT_WRITE_HIGH_WATER_BYTES;
        private int low = DEFAULT_WRITE_LOW_WATER_BYTES;
        private long maxQueuedBytes = DEFAULT_MAX_QUEUED_BYTES;
        private int ioThreads;
        private Map<String, String> properties = Map.of();
        private TlsConfig tls;
        private Limits limits = Limits.DEFAULTS;

        public Builder host(String host) { this.host = host; return this; }
        public Builder port(int port) { this.port = port; return this; }
        public Builder codec(Codec codec) { this.codec = codec; return this; }
        public Builder maxFrameBytes(int max) { this.maxFrameBytes = max; return this; }
        public Builder writeWaterMarks(int low, int high) { this.low = low; this.high = high; return this; }
        /** The most bytes queued for one session; 0 for the default (high-water mark + 4 largest frames). */
        public Builder maxQueuedBytes(long max) { this.maxQueuedBytes = max; return this; }
        public Builder ioThreads(int n) { this.ioThreads = n; return this; }
        public Builder properties(Map<String, String> p) { this.properties = p; return this; }
        /** Serves TLS with this config; null (the default) serves plain TCP. */
        public Builder tls(TlsConfig config) { this.tls = config; return this; }
        /** The sessions' budget; default {@link Limits#DEFAULTS}. */
        public Builder limits(Limits l) { this.limits = Objects.requireNonNull(l, "limits"); return this; }
        /** The most sessions served at once; default {@link Limits#DEFAULT_MAX_SESSIONS}. */
        public Builder maxSessions(int n) { this.limits = limits.withMaxSessions(n); return this; }
        /** How long a connection may take to complete its hello; default 10 s. */
        public Builder helloTimeout(Duration d) { this.limits = limits.withHelloTimeout(d); return this; }
        /** How long a session with nothing under way may stay silent; default {@link Duration#ZERO}, never closed. */
        public Builder idleTimeout(Duration d) { this.limits = limits.withIdleTimeout(d); return this; }
        /** The most bytes all connections together hold, inbound and outbound; default {@link Limits#DEFAULT_MAX_BUFFERED_BYTES}. */
        public Builder maxBufferedBytes(long n) { this.limits = limits.withMaxBufferedBytes(n); return this; }

        public ServerOptions build() {
            return new ServerOptions(host, port, codec == null ? Codecs.defaultCodec() : codec, maxFrameBytes,
                    high, low, maxQueuedBytes, ioThreads, properties, tls, limits);
        }
    }
}
