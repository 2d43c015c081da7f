package org.salgate.mqtt;

import java.time.Duration;
import java.util.Objects;
import org.salgate.transport.tls.TlsConfig;

/** What the MQTT bridge connects to and publishes. Made with {@link #builder(String)}; immutable. */
public final class MqttBridgeConfig extends ForwardingConfig {

    /**
     * Messages a second at which a backlog goes out after a (re)connect by default: a 100,000-message
     * store in under two minutes, and a tenth of what the bridge can send to a local Mosquitto.
     */
    public static final String DEFAULT_DRAIN_RATE = "1000/s";

    private final String serverUri;
    private final String clientId;
    private final String username;
    private final byte[] password;
    private final int qos;
    private final String topicPrefix;
    private final boolean events;
    private final Duration reconnectMin;
    private final Duration reconnectMax;
    private final TlsConfig tls;
    private final int drainRate;
    private final String sparkplugGroup;
    private final String sparkplugNode;
    private final boolean sparkplugWrites;
    private final String homeAssistantPrefix;
    private final PayloadFormat payloadFormat;

    /** How readings are written in MQTT payloads. */
    public enum PayloadFormat {
        /** salgate's JSON object (see the MQTT page of the documentation). */
        JSON,
        /** One InfluxDB line-protocol line, nanosecond timestamp ({@link LineProtocol}), as Telegraf's {@code influx} parser reads it. */
        INFLUX
    }

    private MqttBridgeConfig(Builder b) {
        super(b);
        this.sparkplugWrites = b.sparkplugWrites;
        this.sparkplugGroup = b.sparkplugGroup;
        this.sparkplugNode = b.sparkplugNode;
        this.serverUri = b.serverUri;
        this.clientId = b.clientId;
        this.username = b.username;
        this.password = b.password == null ? null : b.password.clone();
        this.qos = b.qos;
        this.topicPrefix = b.topicPrefix;
        this.events = b.events;
        this.reconnectMin = b.reconnectMin;
        this.reconnectMax = b.reconnectMax;
        this.drainRate = b.drainRate;
        this.tls = b.serverUri.startsWith("ssl://") && b.tls == null ? TlsConfig.clientTrustingSystem() : b.tls;
        this.homeAssistantPrefix = b.homeAssistantPrefix;
        this.payloadFormat = b.payloadFormat;
    }

    /** A builder for a broker at {@code serverUri} ({@code tcp://host:1883} or {@code ssl://host:8883}). */
    public static Builder builder(String serverUri) {
        return new Builder(serverUri);
    }

    public String serverUri() {
        return serverUri;
    }

    /** The MQTT client id, or null for one made from the agent id. */
    public String clientId() {
        return clientId;
    }

    /** The user name, or null to connect without one. */
    public String username() {
        return username;
    }

    /** A copy of the password, or null. */
    public byte[] password() {
        return password == null ? null : password.clone();
    }

    public int qos() {
        return qos;
    }

    public String topicPrefix() {
        return topicPrefix;
    }

    /** Whether agent events are published. */
    public boolean events() {
        return events;
    }

    public Duration reconnectMin() {
        return reconnectMin;
    }

    public Duration reconnectMax() {
        return reconnectMax;
    }

    /** Messages a second at most at which the messages that waited go out after a (re)connect; 0 for no limit. */
    public int drainRate() {
        return drainRate;
    }

    /**
     * How the bridge trusts an {@code ssl://} broker: the CAs given with {@link Builder#tls}, else
     * the JVM's trust store; null for a {@code tcp://} broker.
     */
    public TlsConfig tls() {
        return tls;
    }

    /** The Sparkplug B group id when the bridge publishes Sparkplug B instead of its own topics, else null. */
    public String sparkplugGroup() {
        return sparkplugGroup;
    }

    /** The Sparkplug B edge node id, or null for the agent id. */
    public String sparkplugNode() {
        return sparkplugNode;
    }

    /** Whether Sparkplug hosts may execute the sensors' write commands by DCMD. */
    public boolean sparkplugWrites() {
        return sparkplugWrites;
    }

    /** The prefix of Home Assistant's discovery documents, or null when the bridge publishes none. */
    public String homeAssistantPrefix() {
        return homeAssistantPrefix;
    }

    /** How readings are written in MQTT payloads (default JSON); events are JSON either way. */
    public PayloadFormat payloadFormat() {
        return payloadFormat;
    }

    /** Sets the bridge's options; every setter checks its argument. */
    public static final class Builder extends ForwardingConfig.Builder<Builder> {
        private final String serverUri;
        private String clientId;
        private String username;
        private byte[] password;
        private int qos = 1;
        private String topicPrefix = "salgate";
        private boolean events = true;
        private Duration reconnectMin = Duration.ofMillis(500);
        private Duration reconnectMax = Duration.ofSeconds(10);
        private TlsConfig tls;
        private int drainRate = DrainRate.parse(DEFAULT_DRAIN_RATE);
        private String sparkplugGroup;
        private String sparkplugNode;
        private boolean sparkplugWrites;
        private String homeAssistantPrefix;
        private PayloadFormat payloadFormat = PayloadFormat.JSON;

        private Builder(String serverUri) {
            super("MQTT");
            Objects.requireNonNull(serverUri, "serverUri");
            if (!serverUri.startsWith("tcp://") && !serverUri.startsWith("ssl://")) {
                throw new IllegalArgumentException("MQTT broker URL '" + serverUri
                        + "' must start with tcp:// or ssl://, for example tcp://localhost:1883");
            }
            this.serverUri = serverUri;
        }

        public Builder clientId(String id) {
            if (id != null && id.isBlank()) {
                throw new IllegalArgumentException("the MQTT client id must not be blank");
            }
            this.clientId = id;
            return this;
        }

        public Builder credentials(String user, byte[] pass) {
            this.username = user;
            this.password = pass == null ? null : pass.clone();
            return this;
        }

        /** QoS of readings and events: 0, 1 (the default) or 2. */
        public Builder qos(int q) {
            if (q < 0 || q > 2) {
                throw new IllegalArgumentException("MQTT QoS must be 0, 1 or 2, got " + q);
            }
            this.qos = q;
            return this;
        }

        public Builder topicPrefix(String prefix) {
            new Topics(Objects.requireNonNull(prefix, "prefix"), "check");
            this.topicPrefix = prefix;
            return this;
        }

        @Override
        protected Builder self() {
            return this;
        }

        public Builder events(boolean publish) {
            this.events = publish;
            return this;
        }

        /** The first and the longest wait between connection attempts; the wait doubles in between. */
        public Builder reconnect(Duration min, Duration max) {
            checkBackoff("reconnect", min, max);
            this.reconnectMin = min;
            this.reconnectMax = max;
            return this;
        }

        /**
         * How fast the messages that waited go out after a (re)connect: {@code N/s} (or {@code N})
         * messages a second, {@code 0} for no limit; default {@value MqttBridgeConfig#DEFAULT_DRAIN_RATE}.
         *
         * @throws IllegalArgumentException saying what to write
         */
        public Builder drainRate(String rate) {
            this.drainRate = DrainRate.parse(rate);
            return this;
        }

        /**
         * How to trust an {@code ssl://} broker, such as {@link TlsConfig#clientTrustingCa} with the CA
         * that signed its certificate; the broker's certificate must also name the host in the URL.
         * Without it an {@code ssl://} broker is trusted through the JVM's trust store.
         */
        public Builder tls(TlsConfig config) {
            if (config != null) {
                if (!serverUri.startsWith("ssl://")) {
                    throw new IllegalArgumentException("TLS settings for the MQTT broker need an ssl:// URL, not "
                            + serverUri);
                }
                if (config.isServer()) {
                    throw new IllegalArgumentException("the MQTT bridge needs a client's TLS config (whom to trust),"
                            + " not a server's");
                }
            }
            this.tls = config;
            return this;
        }

        /**
         * Publishes Sparkplug B 3.0 instead of salgate's own topics: the agent is edge node
         * {@code node} (null: the agent id) of group {@code group}, each sensor a device.
         */
        public Builder sparkplug(String group, String node) {
            new org.salgate.mqtt.sparkplug.SparkplugTopics(group, node == null ? "check" : node);
            this.sparkplugGroup = group;
            this.sparkplugNode = node;
            return this;
        }

        /**
         * Lets Sparkplug hosts write: a DCMD to a metric that is a sensor's write command executes
         * it, the agent checking the value against the command's bounds. Off, DCMDs are refused.
         */
        public Builder sparkplugWrites(boolean allowed) {
            this.sparkplugWrites = allowed;
            return this;
        }

        /**
         * Publishes a Home Assistant discovery document per stream under {@code prefix}
         * ({@code homeassistant} unless Home Assistant's MQTT integration was told otherwise); null for none.
         */
        public Builder homeAssistant(String prefix) {
            this.homeAssistantPrefix = prefix == null ? null : HomeAssistant.checkPrefix(prefix);
            return this;
        }

        /** How readings are written in MQTT payloads: JSON (the default) or InfluxDB line protocol. */
        public Builder payloadFormat(PayloadFormat format) {
            this.payloadFormat = Objects.requireNonNull(format, "format");
            return this;
        }

        public MqttBridgeConfig build() {
            if (sparkplugGroup != null && homeAssistantPrefix != null) {
                throw new IllegalArgumentException("Home Assistant discovery points at salgate's JSON topics, which"
                        + " Sparkplug B mode does not publish: use --mqtt-homeassistant or --mqtt-format sparkplug,"
                        + " not both");
            }
            if (payloadFormat == PayloadFormat.INFLUX && homeAssistantPrefix != null) {
                throw new IllegalArgumentException("Home Assistant discovery reads readings as salgate's JSON, not line"
                        + " protocol: use --mqtt-homeassistant with --mqtt-format json");
            }
            return new MqttBridgeConfig(this);
        }
    }
}
