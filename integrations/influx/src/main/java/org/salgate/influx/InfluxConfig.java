package org.salgate.influx;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.salgate.mqtt.LineProtocol;
import org.salgate.mqtt.ForwardingConfig;
import org.salgate.transport.tls.TlsConfig;

/**
 * Where the InfluxDB writer writes and what: an InfluxDB 1.x database ({@link Builder#database}) or
 * a 2.x bucket of an organization ({@link Builder#bucket}), the streams, the batches, the store.
 * Made with {@link #builder(String)}; immutable.
 */
public final class InfluxConfig extends ForwardingConfig {

    /** Points in one write by default; InfluxDB advises batches of about 5,000 at most. */
    public static final int DEFAULT_BATCH_SIZE = 1000;
    /** How long a batch waits for more points before it is written anyway, by default. */
    public static final Duration DEFAULT_LINGER = Duration.ofSeconds(1);

    private final URI url;
    private final String database;
    private final String org;
    private final String bucket;
    private final String token;
    private final String username;
    private final String password;
    private final TlsConfig tls;
    private final String measurement;
    private final LineProtocol.Precision precision;
    private final int batchSize;
    private final Duration linger;
    private final Duration retryMin;
    private final Duration retryMax;

    private InfluxConfig(Builder b) {
        super(b);
        this.url = b.url;
        this.database = b.database;
        this.org = b.org;
        this.bucket = b.bucket;
        this.token = b.token;
        this.username = b.username;
        this.password = b.password;
        this.tls = b.tls;
        this.measurement = b.measurement;
        this.precision = b.precision;
        this.batchSize = b.batchSize;
        this.linger = b.linger;
        this.retryMin = b.retryMin;
        this.retryMax = b.retryMax;
    }

    /** A builder for the server at {@code url}, such as {@code http://localhost:8086}. */
    public static Builder builder(String url) {
        return new Builder(url);
    }

    /** The server's base URL. */
    public URI url() {
        return url;
    }

    /** Whether it writes to InfluxDB 2.x (a bucket) rather than 1.x (a database). */
    public boolean isV2() {
        return bucket != null;
    }

    /**
     * The URL points are posted to: 1.x {@code /write?db=&precision=}, 2.x
     * {@code /api/v2/write?org=&bucket=&precision=}.
     */
    public URI writeUri() {
        String base = url.toString().endsWith("/") ? url.toString() : url + "/";
        String query = isV2()
                ? "api/v2/write?org=" + enc(org) + "&bucket=" + enc(bucket) + "&precision=" + precision.v2Name()
                : "write?db=" + enc(database) + "&precision=" + precision.v1Name();
        return URI.create(base + query);
    }

    /** What it writes to, for log lines: {@code database 'x'} or {@code bucket 'y' of 'org'}. */
    public String target() {
        return isV2() ? "bucket '" + bucket + "' of '" + org + "' at " + url : "database '" + database + "' at " + url;
    }

    /** The 2.x API token (header {@code Authorization: Token ...}), or null. */
    public String token() {
        return token;
    }

    /** The 1.x user name (HTTP basic authentication), or null. */
    public String username() {
        return username;
    }

    /** The 1.x password, or null. */
    public String password() {
        return password;
    }

    /** How an https server is trusted: the given CA, else the JVM's trust store; null for http. */
    public TlsConfig tls() {
        return tls;
    }

    public String measurement() {
        return measurement;
    }

    public LineProtocol.Precision precision() {
        return precision;
    }

    public int batchSize() {
        return batchSize;
    }

    public Duration linger() {
        return linger;
    }

    /** The first wait before a batch is tried again after a server error; it doubles up to {@link #retryMax()}. */
    public Duration retryMin() {
        return retryMin;
    }

    public Duration retryMax() {
        return retryMax;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Sets the writer's options; every setter checks its argument, {@link #build()} checks the whole. */
    public static final class Builder extends ForwardingConfig.Builder<Builder> {
        private final URI url;
        private String database;
        private String org;
        private String bucket;
        private String token;
        private String username;
        private String password;
        private TlsConfig tls;
        private String measurement = LineProtocol.DEFAULT_MEASUREMENT;
        private LineProtocol.Precision precision = LineProtocol.Precision.US;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private Duration linger = DEFAULT_LINGER;
        private Duration retryMin = Duration.ofMillis(500);
        private Duration retryMax = Duration.ofSeconds(30);

        private Builder(String url) {
            super("InfluxDB");
            Objects.requireNonNull(url, "url");
            URI u;
            try {
                u = URI.create(url);
            } catch (IllegalArgumentException e) {
                u = null;
            }
            if (u == null || u.getHost() == null || !("http".equals(u.getScheme()) || "https".equals(u.getScheme()))
                    || u.getRawQuery() != null) {
                throw new IllegalArgumentException("InfluxDB URL '" + url + "' is not usable: give http:// or https://"
                        + " with a host and no query, for example http://localhost:8086");
            }
            this.url = u;
        }

        /** An InfluxDB 1.x database: points go to {@code /write?db=NAME}. */
        public Builder database(String name) {
            this.database = nonBlank(name, "database");
            return this;
        }

        /** An InfluxDB 2.x bucket of an organization: points go to {@code /api/v2/write?org=ORG&bucket=NAME}. */
        public Builder bucket(String orgName, String bucketName) {
            this.org = nonBlank(orgName, "organization");
            this.bucket = nonBlank(bucketName, "bucket");
            return this;
        }

        /** The 2.x API token, sent as {@code Authorization: Token ...}. */
        public Builder token(String t) {
            this.token = t == null ? null : nonBlank(t, "token");
            return this;
        }

        /** A 1.x user and password, sent with HTTP basic authentication. */
        public Builder credentials(String user, String pass) {
            this.username = user;
            this.password = pass;
            return this;
        }

        /**
         * How to trust an https server (such as {@link TlsConfig#clientTrustingCa}); without it, the
         * JVM's trust store.
         */
        public Builder tls(TlsConfig config) {
            if (config != null && config.isServer()) {
                throw new IllegalArgumentException("the InfluxDB writer needs a client's TLS config (whom to trust),"
                        + " not a server's");
            }
            this.tls = config;
            return this;
        }

        public Builder measurement(String m) {
            new LineProtocol(m, "check", LineProtocol.Precision.US);
            this.measurement = m;
            return this;
        }

        public Builder precision(LineProtocol.Precision p) {
            this.precision = Objects.requireNonNull(p, "precision");
            return this;
        }

        /** Points in one write at most. */
        public Builder batchSize(int n) {
            if (n <= 0) {
                throw new IllegalArgumentException("an InfluxDB batch must hold at least one point, got " + n);
            }
            this.batchSize = n;
            return this;
        }

        /** How long a batch not yet full waits for more points before it is written. */
        public Builder linger(Duration d) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("the InfluxDB batch linger must not be negative, got " + d);
            }
            this.linger = d;
            return this;
        }

        /** The first and the longest wait before a failed write is tried again; the wait doubles in between. */
        public Builder retry(Duration min, Duration max) {
            checkBackoff("retry", min, max);
            this.retryMin = min;
            this.retryMax = max;
            return this;
        }

        /**
         * @throws IllegalArgumentException when neither or both of a database and a bucket are given,
         *                                  or TLS settings are given for an http URL
         */
        public InfluxConfig build() {
            if ((database == null) == (bucket == null)) {
                throw new IllegalArgumentException("InfluxDB needs either a database (1.x, --influx-db) or an"
                        + " organization and a bucket (2.x, --influx-org and --influx-bucket)" + (database != null
                        ? ", not both" : ""));
            }
            boolean https = "https".equals(url.getScheme());
            if (tls != null && !https) {
                throw new IllegalArgumentException("TLS settings for InfluxDB need an https:// URL, not " + url);
            }
            if (https && tls == null) {
                tls = TlsConfig.clientTrustingSystem();
            }
            return new InfluxConfig(this);
        }

        @Override
        protected Builder self() {
            return this;
        }

        private static String nonBlank(String s, String what) {
            if (s == null || s.isBlank()) {
                throw new IllegalArgumentException("the InfluxDB " + what + " must not be blank");
            }
            return s;
        }
    }
}
