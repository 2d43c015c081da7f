package org.salgate.client;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.model.Call;
import org.salgate.wire.Codec;
import org.salgate.wire.Codecs;
import org.salgate.model.Event;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.SensorInfo;

/**
 * A connection to a salgate agent and the SAL API over it. Made with {@link #builder()}; every
 * method is thread-safe and returns at once with a future.
 *
 * <p>Futures fail with {@link SalException} when the agent fails a request, with a
 * {@link java.util.concurrent.TimeoutException} when it does not answer within the request
 * timeout, and with {@link ConnectionClosedException} when the connection closes first. They
 * complete on the transport's thread (or the timeout thread), so dependent stages run there:
 * keep them short. The exceptions are the parsed documents ({@link #describeSensor},
 * {@link #listCommands}): they are parsed and validated on a small pool of daemon threads shared by
 * every client of the JVM, never on the transport's thread, and complete there.
 *
 * <p>Stream readings and events are delivered in order on the transport's thread. A listener that
 * blocks makes this client stop reading, which slows every request and stream on this connection
 * and which the agent sees as a slow client (backpressure). A listener that throws is logged and
 * keeps its subscription. Never wait for one of this client's futures inside a listener or a
 * dependent stage: its answer would have to arrive on the very thread that waits.
 */
public final class SalClient implements AutoCloseable {

    /** The port an agent listens on unless told otherwise. */
    public static final int DEFAULT_PORT = 7431;

    private final ClientConnection connection;
    private final String transportName;
    private final String agentId;
    private final String role;

    private SalClient(ClientConnection connection, String transportName, String agentId, String role) {
        this.connection = connection;
        this.transportName = transportName;
        this.agentId = agentId;
        this.role = role;
    }

    /** A builder with the defaults: netty, 127.0.0.1:7431, protobuf, 5 s to connect, 30 s per request. */
    public static Builder builder() {
        return new Builder();
    }

    // ---- sensor management

    /** Every sensor of the agent. */
    public CompletableFuture<List<SensorInfo>> listSensors() {
        return call(new Call.ListSensors(false), Result.Sensors.class).thenApply(Result.Sensors::sensors);
    }

    /** The sensors that are streaming. */
    public CompletableFuture<List<SensorInfo>> listActiveSensors() {
        return call(new Call.ListSensors(true), Result.Sensors.class).thenApply(Result.Sensors::sensors);
    }

    /** A sensor's SensorML document, as the agent wrote it. */
    public CompletableFuture<String> describeSensorXml(String sensorId) {
        return call(new Call.DescribeSensor(sensorId), Result.Document.class).thenApply(Result.Document::xml);
    }

    /**
     * A sensor's description, parsed and validated against the SensorML schema off the transport's
     * thread; fails with {@link DocumentException} if the document does not parse.
     */
    public CompletableFuture<SensorDescription> describeSensor(String sensorId) {
        return describeSensorXml(sensorId)
                .thenApplyAsync(xml -> parse(() -> SensorMl.read(xml)), ClientThreads.documents());
    }

    /** Adds a sensor from its SensorML description; answers the sensor as listed. */
    public CompletableFuture<SensorInfo> addSensor(String sensorMlXml) {
        return call(new Call.AddSensor(sensorMlXml), Result.Sensor.class).thenApply(Result.Sensor::sensor);
    }

    /** Removes a sensor; its streams end. */
    public CompletableFuture<Void> removeSensor(String sensorId) {
        return call(new Call.RemoveSensor(sensorId), Result.Ack.class).thenApply(ack -> null);
    }

    // ---- sensor control

    /** A sensor's commands as a CML document. */
    public CompletableFuture<String> listCommandsXml(String sensorId) {
        return call(new Call.ListCommands(sensorId), Result.Document.class).thenApply(Result.Document::xml);
    }

    /**
     * A sensor's commands, parsed and validated against the CML schema off the transport's thread;
     * fails with {@link DocumentException} if the document does not parse.
     */
    public CompletableFuture<List<CommandDescription>> listCommands(String sensorId) {
        return listCommandsXml(sensorId)
                .thenApplyAsync(xml -> parse(() -> Cml.read(xml)), ClientThreads.documents());
    }

    /**
     * Executes a command once. A read that fails on the sensor is a reading with an error status,
     * not a failed future.
     *
     * @param args the command's arguments; null for none
     */
    public CompletableFuture<Reading> execute(String sensorId, String commandId, Map<String, String> args) {
        return call(new Call.Execute(sensorId, commandId, copy(args)), Result.ReadingResult.class)
                .thenApply(Result.ReadingResult::reading);
    }

    /**
     * Sets up a stream of this client's own of a command's readings and starts it. The listener is
     * registered before the stream starts, so it gets every reading from sequence 0, in order, on the
     * transport's thread.
     *
     * @param args the command's arguments; null for none
     * @param intervalMs the interval between readings; 0 for as fast as this client takes them
     * @param listener receives the readings and the end of the stream
     */
    public CompletableFuture<SensorStream> stream(String sensorId, String commandId, Map<String, String> args,
                                                  long intervalMs, StreamListener listener) {
        return stream(sensorId, commandId, args, intervalMs, null, listener);
    }

    /**
     * As {@link #stream(String, String, Map, long, StreamListener)}, with what the agent does when this
     * client reads slower than the stream produces.
     *
     * @param policy block, drop-oldest or disconnect; null for the agent's default
     */
    public CompletableFuture<SensorStream> stream(String sensorId, String commandId, Map<String, String> args,
                                                  long intervalMs, SlowConsumerPolicy policy,
                                                  StreamListener listener) {
        return stream(sensorId, commandId, args, intervalMs, policy, false, listener);
    }

    /**
     * As {@link #stream(String, String, Map, long, SlowConsumerPolicy, StreamListener)}, and with
     * {@code shared} true joins the agent's one shared stream of this command, with these arguments,
     * at this interval, rather than a stream of this client's own: the agent reads the sensor once per
     * interval and encodes each reading once for all its subscribers. Every subscriber sees the shared
     * stream's id and sequence numbers, so the listener's first reading is the one the shared stream
     * takes next (its sequence need not be 0, and no gap is reported before it); a reading this client
     * missed afterwards (not reading, whatever its policy) is a gap ({@link StreamListener#onGap}).
     * The policy and the counts are this client's own, and {@link SensorStream#stop()} takes only
     * this client out. The agent refuses a shared stream at interval 0 (INVALID_ARGUMENT) and a
     * second join of the same shared stream on one connection (CONFLICT).
     *
     * @param shared whether to join the agent's shared stream rather than set up one of this client's own
     */
    public CompletableFuture<SensorStream> stream(String sensorId, String commandId, Map<String, String> args,
                                                  long intervalMs, SlowConsumerPolicy policy, boolean shared,
                                                  StreamListener listener) {
        Objects.requireNonNull(listener, "listener");
        // StartStream is sent off the transport's thread, where some transports must not block.
        return setupStream(sensorId, commandId, args, intervalMs, policy, shared)
                .thenComposeAsync(pending -> pending.start(listener), ClientThreads.sends());
    }

    /**
     * Sets up a stream without starting it: the agent checks the sensor, the command, its arguments
     * and the interval, and holds the stream until it is started or cancelled (it counts towards the
     * agent's limit of streams per client meanwhile). A refusal fails the future with a
     * {@link SalException}, as for {@link #stream}.
     *
     * @param args the command's arguments; null for none
     * @param intervalMs the interval between readings; 0 for as fast as this client takes them
     */
    public CompletableFuture<PendingStream> setupStream(String sensorId, String commandId, Map<String, String> args,
                                                        long intervalMs) {
        return setupStream(sensorId, commandId, args, intervalMs, null);
    }

    /**
     * As {@link #setupStream(String, String, Map, long)}, with the stream's slow-consumer policy.
     *
     * @param policy block, drop-oldest or disconnect; null for the agent's default
     */
    public CompletableFuture<PendingStream> setupStream(String sensorId, String commandId, Map<String, String> args,
                                                        long intervalMs, SlowConsumerPolicy policy) {
        return setupStream(sensorId, commandId, args, intervalMs, policy, false);
    }

    /**
     * As {@link #setupStream(String, String, Map, long, SlowConsumerPolicy)}, and with {@code shared}
     * true sets up this client's place in the agent's shared stream of this command, as
     * {@link #stream(String, String, Map, long, SlowConsumerPolicy, boolean, StreamListener)} tells.
     *
     * @param shared whether to join the agent's shared stream rather than set up one of this client's own
     */
    public CompletableFuture<PendingStream> setupStream(String sensorId, String commandId, Map<String, String> args,
                                                        long intervalMs, SlowConsumerPolicy policy, boolean shared) {
        Call.SetupStream setup = new Call.SetupStream(sensorId, commandId, copy(args), intervalMs, policy, shared);
        return call(setup, Result.StreamHandle.class)
                .thenApply(handle -> new SetUpStream(handle.streamId(), handle.policy(), shared, connection));
    }

    // ---- platform configuration

    /** The loaded protocols. */
    public CompletableFuture<List<ProtocolInfo>> listProtocols() {
        return call(new Call.ListProtocols(), Result.Protocols.class).thenApply(Result.Protocols::protocols);
    }

    /** Adds the protocols of a PCML document; answers the protocols added. */
    public CompletableFuture<List<ProtocolInfo>> addProtocol(String pcmlXml) {
        return call(new Call.AddProtocol(pcmlXml), Result.Protocols.class).thenApply(Result.Protocols::protocols);
    }

    /** Removes a protocol and its sensors. */
    public CompletableFuture<Void> removeProtocol(String name) {
        return call(new Call.RemoveProtocol(name), Result.Ack.class).thenApply(ack -> null);
    }

    /** The agent's platform configuration as a PCML document. */
    public CompletableFuture<String> platformConfigXml() {
        return call(new Call.GetPlatformConfig(), Result.Document.class).thenApply(Result.Document::xml);
    }

    // ---- events

    /**
     * Delivers the agent's events to {@code listener} (on the transport's thread) until the returned
     * handle is closed. Several listeners share one subscription on the agent. Events the agent did
     * not deliver because this client was not reading are announced by an
     * {@link Event.Type#EVENTS_MISSED} event whose detail gives their number; see also
     * {@link #missedEvents()}.
     */
    public CompletableFuture<AutoCloseable> subscribeEvents(Consumer<Event> listener) {
        Objects.requireNonNull(listener, "listener");
        return connection.subscribe(listener);
    }

    // ---- diagnostics

    /**
     * How many events the agent did not deliver to this client because it was not reading, counted
     * once the event listeners have been handed the {@link Event.Type#EVENTS_MISSED} event (and the
     * event that came with the notice).
     */
    public long missedEvents() {
        return connection.missedEvents();
    }

    // ---- connection

    /** Whether the connection is open. */
    public boolean isOpen() {
        return connection.isOpen();
    }

    /** The agent's address, as {@code host:port}. */
    public String address() {
        return connection.address();
    }

    /**
     * Completes (normally, on the thread that saw it) once the connection has closed, by either side;
     * by then pending requests have failed and streams have ended.
     */
    public CompletableFuture<Void> closeFuture() {
        return connection.closedFuture().thenApply(v -> null);
    }

    /** The name of the transport in use. */
    public String transportName() {
        return transportName;
    }

    /** The id the agent gave in its hello reply. */
    public String agentId() {
        return agentId;
    }

    /**
     * The role the agent gave this connection in its hello reply: {@code reader} or {@code admin}
     * (every client is admin on an agent without tokens); the empty string from an agent that does
     * not say.
     */
    public String role() {
        return role;
    }

    /** How many stream frames arrived for a stream this client did not know (stopped or never started); dropped. */
    public long unknownStreamFrames() {
        return connection.unknownStreamFrames();
    }

    /**
     * Closes the connection. Pending futures fail with {@link ConnectionClosedException}, and every
     * stream ends ({@link StreamListener#onEnded}). Idempotent.
     */
    @Override
    public void close() {
        connection.close("closed by this client");
    }

    ClientConnection connection() {
        return connection;
    }

    @Override
    public String toString() {
        return "SalClient[" + transportName + " " + address() + (isOpen() ? "" : ", closed") + "]";
    }

    private <R extends Result> CompletableFuture<R> call(Call call, Class<R> expected) {
        return connection.request(call).thenApply(result -> {
            if (!expected.isInstance(result)) {
                throw ClientConnection.unexpected(call.getClass().getSimpleName(), result);
            }
            return expected.cast(result);
        });
    }

    private static Map<String, String> copy(Map<String, String> args) {
        return args == null ? Map.of() : new HashMap<>(args);
    }

    private interface DocumentReader<T> {
        T read() throws DocumentException;
    }

    private static <T> T parse(DocumentReader<T> reader) {
        try {
            return reader.read();
        } catch (DocumentException e) {
            throw new CompletionException(e);
        }
    }

    /** How to reach an agent. Not thread-safe; {@link #connect()} may be called more than once. */
    public static final class Builder {
        private String transportName = Transports.DEFAULT;
        private TransportProvider provider;
        private String host = "127.0.0.1";
        private int port = DEFAULT_PORT;
        private String codec = Codecs.DEFAULT;
        private String clientName = "salgate-client";
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration requestTimeout = Duration.ofSeconds(30);
        private int maxFrameBytes = Framing.DEFAULT_MAX_FRAME_BYTES;
        private Map<String, String> transportProperties = Map.of();
        private TlsConfig tls;
        private String token = "";
        private int writeHighWaterBytes = ServerOptions.DEFAULT_WRITE_HIGH_WATER_BYTES;
        private int writeLowWaterBytes = ServerOptions.DEFAULT_WRITE_LOW_WATER_BYTES;
        private long maxQueuedBytes = ServerOptions.DEFAULT_MAX_QUEUED_BYTES;

        private Builder() {}

        /** The transport, by name (default {@code netty}); looked up with {@link Transports} at connect. */
        public Builder transport(String name) {
            this.transportName = Objects.requireNonNull(name, "transport");
            this.provider = null;
            return this;
        }

        /** The transport, as a provider object (not looked up). */
        public Builder transport(TransportProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
            this.transportName = provider.name();
            return this;
        }

        /** The agent's host; default 127.0.0.1. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The agent's port; default {@link #DEFAULT_PORT}. */
        public Builder port(int port) {
            if (port <= 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 1..65535, got " + port);
            }
            this.port = port;
            return this;
        }

        /** The codec used after the hello, by name; default {@code protobuf}. */
        public Builder codec(String name) {
            this.codec = Objects.requireNonNull(name, "codec");
            return this;
        }

        /** A name for the agent's logs. */
        public Builder clientName(String name) {
            this.clientName = Objects.requireNonNull(name, "clientName");
            return this;
        }

        /** How long connecting and the hello may take together; default 5 s. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connectTimeout");
            return this;
        }

        /** How long a request waits for its answer; default 30 s; zero waits forever. */
        public Builder requestTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "requestTimeout");
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("requestTimeout must not be negative");
            }
            this.requestTimeout = timeout;
            return this;
        }

        /** The largest frame accepted from the agent; default 16 MiB. */
        public Builder maxFrameBytes(int max) {
            if (max <= 0) {
                throw new IllegalArgumentException("maxFrameBytes must be positive");
            }
            this.maxFrameBytes = max;
            return this;
        }

        /**
         * The bearer token the hello presents, for an agent that requires one (its {@code --tokens});
         * default none. The token decides the connection's role (reader or admin).
         */
        public Builder token(String token) {
            this.token = Objects.requireNonNull(token, "token").strip();
            return this;
        }

        /**
         * The bound of the requests queued for the agent, as the agent's own: above {@code highBytes}
         * the connection is not writable until it falls below {@code lowBytes}; defaults 1 MiB and
         * 512 KiB.
         */
        public Builder writeWaterMarks(int lowBytes, int highBytes) {
            this.writeLowWaterBytes = lowBytes;
            this.writeHighWaterBytes = highBytes;
            return this;
        }

        /**
         * The most request bytes queued for the agent; a request past it fails at once. 0 (the
         * default) is the high-water mark plus four of the largest frames.
         */
        public Builder maxQueuedBytes(long max) {
            this.maxQueuedBytes = max;
            return this;
        }

        /** Transport-specific settings, as each transport documents them. */
        public Builder transportProperties(Map<String, String> properties) {
            this.transportProperties = Map.copyOf(properties);
            return this;
        }

        /**
         * Connects over TLS with this client config (see {@link TlsConfig#clientTrustingCa},
         * {@link TlsConfig#clientTrustingSystem}, {@link TlsConfig#clientPinned}); null, the
         * default, connects over plain TCP.
         */
        public Builder tls(TlsConfig config) {
            this.tls = config;
            return this;
        }

        /**
         * Connects and completes the hello.
         *
         * @throws HelloRefusedException when the agent refuses the hello, with its reason
         * @throws IOException when the agent cannot be reached or does not answer the hello in time
         * @throws IllegalArgumentException when the transport or codec is unknown, naming those available
         */
        public SalClient connect() throws IOException {
            TransportProvider p = provider != null ? provider : Transports.byName(transportName);
            Codec c = Codecs.byName(codec);
            ClientOptions options = ClientOptions.builder()
                    .host(host).port(port).codec(c).maxFrameBytes(maxFrameBytes)
                    .connectTimeout(connectTimeout).properties(transportProperties).tls(tls)
                    .writeWaterMarks(writeLowWaterBytes, writeHighWaterBytes).maxQueuedBytes(maxQueuedBytes)
                    .build();
            TransportClient transport = p.createClient(options);
            String address = host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
            ClientConnection connection = new ClientConnection(transport, address, p.name(), requestTimeout);
            HelloReply reply = connection.open(new Hello(Hello.PROTOCOL_VERSION, c.name(), clientName, token),
                    connectTimeout);
            return new SalClient(connection, p.name(), reply.agentId(), reply.role());
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive");
            }
            return d;
        }
    }
}
