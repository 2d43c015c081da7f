package org.salgate.influx;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.salgate.agent.AgentExtension;
import org.salgate.model.Call;
import org.salgate.model.Event;
import org.salgate.model.Result;
import org.salgate.mqtt.BridgeStreams;
import org.salgate.mqtt.ForwardStore;
import org.salgate.mqtt.LineProtocol;
import org.salgate.mqtt.MqttBridge;
import org.salgate.mqtt.SessionCalls;
import org.salgate.mqtt.Topics;
import org.salgate.mqtt.report.Report;
import org.salgate.mqtt.report.ReportStats;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.wire.EventNotice;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an agent's readings to InfluxDB. Like the MQTT bridge it talks to the agent through one
 * in-process {@link BridgeSession} and sets up the configured streams ({@link BridgeStreams}); each
 * reading becomes a line of {@link LineProtocol} appended to a bounded on-disk {@link ForwardStore},
 * which the {@link InfluxWriter} empties in batches into InfluxDB.
 */
public final class InfluxBridge implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InfluxBridge.class);
    private static final String WHO = "the InfluxDB writer";
    /** Store entries carry no topic: every line goes to the one write URL. */
    private static final String NO_TOPIC = "";

    private final InfluxConfig config;
    private final LineProtocol lines;
    private final ForwardStore store;
    private final InfluxWriter writer;
    private final BridgeStreams streams;
    private final ReportStats reports = new ReportStats();
    private final AtomicBoolean closing = new AtomicBoolean();
    private BridgeSession session;

    private InfluxBridge(InfluxConfig config, String agentId, ForwardStore store) {
        this.config = config;
        this.lines = new LineProtocol(config.measurement(), agentId, config.precision());
        this.store = store;
        this.writer = new InfluxWriter(config, store);
        // BridgeStreams names an MQTT topic for each stream; the writer has one URL and ignores it
        this.streams = new BridgeStreams(this::call, new Topics("influx", agentId), config.streamsFile(), reports,
                BridgeStreams.Watcher.NONE);
    }

    /**
     * The writer as an agent extension: once the agent listens, it starts on a session of the
     * agent's own, and closes when the agent stops.
     *
     * @param started given the writer once it started (to register its figures), or null
     */
    public static AgentExtension extension(InfluxConfig config, Consumer<InfluxBridge> started) {
        return agent -> {
            InfluxBridge bridge = start(config, agent.agentId(), agent.codecName(), agent.inProcessCredentials(),
                    sink -> agent.openSession("influx", () -> true, sink));
            if (started != null) {
                started.accept(bridge);
            }
            return bridge;
        };
    }

    /**
     * Opens the store, starts writing (an unreachable server is retried, not an error), then sets
     * up the configured streams on the agent.
     *
     * @throws IOException when the store cannot be opened, or the agent refuses the session or a stream
     */
    public static InfluxBridge start(InfluxConfig config, String agentId, String codec, String credentials,
                                     MqttBridge.SessionOpener opener) throws IOException {
        Path file = config.storeFile() != null ? config.storeFile() : config.storeDirectory().resolve("influx.mv.db");
        ForwardStore store = ForwardStore.open(file, config.maxStored(), config.maxAge(), Clock.systemUTC());
        InfluxBridge bridge;
        try {
            bridge = new InfluxBridge(config, agentId, store);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        try {
            bridge.writer.start();
            bridge.open(opener, codec, credentials);
        } catch (IOException | RuntimeException e) {
            bridge.close();
            throw e;
        }
        return bridge;
    }

    private void open(MqttBridge.SessionOpener opener, String codec, String credentials) throws IOException {
        session = opener.open(new Sink());
        HelloReply reply = SessionCalls.await(session.hello("influx-writer", codec, credentials), "the hello", WHO);
        if (!reply.accepted()) {
            throw new IOException("the agent refused the InfluxDB writer's session: " + reply.error());
        }
        if (BridgeStreams.followsEvents(config.streams(), config.streamsFile())) {
            call(new Call.SubscribeEvents(), Result.Ack.class, "subscribing to events");
        }
        streams.start(config.streams());
        LOG.info("InfluxDB writer to {}: {} stream(s){}, measurement '{}', precision {}", config.target(),
                streams.size(), config.streamsFile() != null ? " (with those of " + config.streamsFile() + ")" : "",
                config.measurement(), config.precision().v2Name());
    }

    private <T extends Result> T call(Call c, Class<T> type, String what) throws IOException {
        return SessionCalls.expect(SessionCalls.await(session.call(c), what, WHO), type, what);
    }

    /** Points InfluxDB has taken since the start. */
    public long written() {
        return writer.written();
    }

    /** Points the streams' report filters let through (a window's aggregate counts one). */
    public long sent() {
        return reports.sent();
    }

    /** Readings the streams' report filters held back: within a deadband, or folded into a window. */
    public long suppressed() {
        return reports.suppressed();
    }

    /** Points waiting in the store. */
    public long pending() {
        return store.size();
    }

    /** Points dropped: the store was full, they waited too long, or InfluxDB refused them. */
    public long dropped() {
        return store.dropped() + store.expired() + writer.refused();
    }

    /** Points InfluxDB refused (a 4xx answer), part of {@link #dropped()}. */
    public long refused() {
        return writer.refused();
    }

    /** Whether the last write reached InfluxDB. */
    public boolean isReachable() {
        return writer.isReachable();
    }

    /**
     * Ends its session (its streams stop), writes what waits for up to two seconds while InfluxDB
     * takes points; the rest stays in the store for the next start.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        streams.close();
        if (session != null) {
            session.closeByCaller();
        }
        writer.close(Duration.ofSeconds(2));
        store.close();
    }

    private final class Sink implements BridgeSession.Sink {
        @Override
        public void pushed(Message message) {
            if (message instanceof StreamData d) {
                BridgeStreams.Target t = streams.target(d.streamId());
                if (t != null) {
                    for (Report r : t.filter().offer(d.reading())) {
                        store.append(NO_TOPIC, lines.report(r, t.spec().commandId()));
                    }
                    writer.queued();
                }
            } else if (message instanceof EventNotice n && n.event().type() == Event.Type.SENSOR_ADDED) {
                streams.sensorAdded(n.event().subject());
            } else if (message instanceof StreamEnded ended) {
                BridgeStreams.Target t = streams.ended(ended.streamId());
                if (t != null && !closing.get() && !t.origin().isPattern()) {
                    LOG.warn("the agent ended the InfluxDB stream {}: {}", t.spec(), ended.reason());
                }
            }
        }

        @Override
        public void closed(boolean byAgent) {
            if (byAgent && !closing.get()) {
                LOG.warn("the agent closed the InfluxDB writer's session; nothing more is written");
            }
        }
    }
}
