package org.salgate.influx;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;
import org.salgate.agent.AgentExtension;
import org.salgate.model.Call;
import org.salgate.model.Event;
import org.salgate.model.Result;
import org.salgate.mqtt.AgentSession;
import org.salgate.mqtt.BridgeStreams;
import org.salgate.mqtt.ForwardStore;
import org.salgate.mqtt.ForwardingBridge;
import org.salgate.mqtt.LineProtocol;
import org.salgate.mqtt.Topics;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.wire.EventNotice;
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
public final class InfluxBridge extends ForwardingBridge {

    private static final Logger LOG = LoggerFactory.getLogger(InfluxBridge.class);
    /** Store entries carry no topic: every line goes to the one write URL. */
    private static final String NO_TOPIC = "";

    private final InfluxConfig config;
    private final LineProtocol lines;
    private final InfluxWriter writer;

    private InfluxBridge(InfluxConfig config, String agentId, ForwardStore store) {
        // the streams are named as MQTT topics; the writer has one URL and ignores them
        super("the InfluxDB writer", config, store, new Topics("influx", agentId));
        this.config = config;
        this.lines = new LineProtocol(config.measurement(), agentId, config.precision());
        this.writer = new InfluxWriter(config, store);
    }

    /**
     * The writer as an agent extension: once the agent listens, it starts on a session of the
     * agent's own, and closes when the agent stops.
     *
     * @param started given the writer once it started (to register its figures), or null
     */
    public static AgentExtension extension(InfluxConfig config, Consumer<InfluxBridge> started) {
        return extension("influx", (agentId, codec, credentials, opener) -> start(config, agentId, codec,
                credentials, opener), started);
    }

    /**
     * Opens the store, starts writing (an unreachable server is retried, not an error), then sets
     * up the configured streams on the agent.
     *
     * @throws IOException when the store cannot be opened, or the agent refuses the session or a stream
     */
    public static InfluxBridge start(InfluxConfig config, String agentId, String codec, String credentials,
                                     AgentSession.Opener opener) throws IOException {
        ForwardStore store = config.openStore("influx.mv.db");
        InfluxBridge bridge;
        try {
            bridge = new InfluxBridge(config, agentId, store);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return start(bridge, opener, codec, credentials);
    }

    @Override
    protected void startSender() {
        writer.start();
    }

    @Override
    protected void stopSender(Duration drain) {
        writer.close(drain);
    }

    @Override
    protected void open(AgentSession.Opener opener, String codec, String credentials) throws IOException {
        agent.open(opener, new Sink(), "influx-writer", codec, credentials);
        if (config.followsEvents()) {
            agent.call(new Call.SubscribeEvents(), Result.Ack.class, "subscribing to events");
        }
        streams.start(config.streams());
        LOG.info("InfluxDB writer to {}: {} stream(s){}, measurement '{}', precision {}", config.target(),
                streams.size(), config.streamsFile() != null ? " (with those of " + config.streamsFile() + ")" : "",
                config.measurement(), config.precision().v2Name());
    }

    /** Points InfluxDB has taken since the start. */
    public long written() {
        return writer.written();
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

    private final class Sink implements BridgeSession.Sink {
        @Override
        public void pushed(Message message) {
            if (message instanceof StreamData d) {
                streams.offer(d, (t, r) -> store.append(NO_TOPIC, lines.report(r, t.spec().commandId())));
                writer.queued();
            } else if (message instanceof EventNotice n && n.event().type() == Event.Type.SENSOR_ADDED) {
                streams.sensorAdded(n.event().subject());
            } else if (message instanceof StreamEnded ended) {
                streams.ended(ended);
            }
        }

        @Override
        public void closed(boolean byAgent) {
            sessionClosed(byAgent);
        }
    }
}
