package org.salgate.transport;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.Codec;
import org.salgate.wire.Codecs;
import org.salgate.wire.Framing;

/**
 * How a client connects. Made with {@link #builder()}.
 *
 * @param host the agent's host
 * @param port the agent's port
 * @param codec the codec used after the handshake; must be the agent's
 * @param maxFrameBytes the largest frame accepted from the agent
 * @param connectTimeout how long to try to connect
 * @param writeHighWaterBytes above this many queued request bytes the connection is not writable
 * @param writeLowWaterBytes below this many it is writable again
 * @param maxQueuedBytes the most request bytes queued; a request that would go past it fails at once
 * @param properties transport-specific settings, documented by each transport
 * @param tls the client's TLS config, or null to connect over plain TCP; with TLS, connecting
 *            includes the handshake, bounded by {@code connectTimeout}
 */
public record ClientOptions(String host, int port, Codec codec, int maxFrameBytes, Duration connectTimeout,
                            int writeHighWaterBytes, int writeLowWaterBytes, long maxQueuedBytes,
                            Map<String, String> properties, TlsConfig tls) {

    public ClientOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535, got " + port);
        }
        if (maxFrameBytes <= 0) {
            throw new IllegalArgumentException("maxFrameBytes must be positive");
        }
        if (writeLowWaterBytes <= 0 || writeHighWaterBytes < writeLowWaterBytes) {
            throw new IllegalArgumentException("need 0 < writeLowWaterBytes <= writeHighWaterBytes");
        }
        if (maxQueuedBytes == ServerOptions.DEFAULT_MAX_QUEUED_BYTES) {
            maxQueuedBytes = ServerOptions.defaultMaxQueuedBytes(writeHighWaterBytes, maxFrameBytes);
        }
        if (maxQueuedBytes < writeHighWaterBytes) {
            throw new IllegalArgumentException("maxQueuedBytes (" + maxQueuedBytes
                    + ") must be at least the high-water mark (" + writeHighWaterBytes + ")");
        }
        properties = properties == null ? Map.of() : Map.copyOf(properties);
        if (tls != null && tls.isServer()) {
            throw new IllegalArgumentException("a client needs a client's TLS config (how to trust the agent), not "
                    + tls);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder with defaults: 127.0.0.1, protobuf, 16 MiB frames, 5 s connect timeout, the server's default bound; the port must be set. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private Codec codec;
        private int maxFrameBytes = Framing.DEFAULT_MAX_FRAME_BYTES;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private int high = ServerOptions.DEFAULT_WRITE_HIGH_WATER_BYTES;
        private int low = ServerOptions.DEFAULT_WRITE_LOW_WATER_BYTES;
        private long maxQueuedBytes = ServerOptions.DEFAULT_MAX_QUEUED_BYTES;
        private Map<String, String> properties = Map.of();
        private TlsConfig tls;

        public Builder host(String host) { this.host = host; return this; }
        public Builder port(int port) { this.port = port; return this; }
        public Builder codec(Codec codec) { this.codec = codec; return this; }
        public Builder maxFrameBytes(int max) { this.maxFrameBytes = max; return this; }
        public Builder connectTimeout(Duration timeout) { this.connectTimeout = timeout; return this; }
        public Builder writeWaterMarks(int low, int high) { this.low = low; this.high = high; return this; }
        /** The most request bytes queued; 0 for the default (high-water mark + 4 largest frames). */
        public Builder maxQueuedBytes(long max) { this.maxQueuedBytes = max; return this; }
        public Builder properties(Map<String, String> p) { this.properties = p; return this; }
        /** Connects with TLS with this config; null (the default) connects over plain TCP. */
        public Builder tls(TlsConfig config) { this.tls = config; return this; }

        public ClientOptions build() {
            return new ClientOptions(host, port, codec == null ? Codecs.defaultCodec() : codec, maxFrameBytes,
                    connectTimeout, high, low, maxQueuedBytes, properties, tls);
        }
    }
}
