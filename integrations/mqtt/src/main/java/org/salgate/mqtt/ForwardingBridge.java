package org.salgate.mqtt;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.salgate.agent.AgentExtension;
import org.salgate.mqtt.report.ReportStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a bridge that forwards an agent's readings is made of, whatever it forwards to: its
 * in-process session on the agent ({@link AgentSession}), the streams it keeps there
 * ({@link BridgeStreams}), and the bounded on-disk {@link ForwardStore} between the two, which the
 * bridge's sender empties towards its server. The MQTT bridge and the InfluxDB writer extend it
 * with their server's side: the sender, and what each pushed message becomes.
 */
public abstract class ForwardingBridge implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ForwardingBridge.class);
    /** How long a closing bridge lets its sender send what waits while the server takes it. */
    private static final Duration DRAIN_ON_CLOSE = Duration.ofSeconds(2);

    /** Starts a bridge on the agent's session opener, with the agent's codec and in-process credentials. */
    @FunctionalInterface
    protected interface Starter<B extends ForwardingBridge> {
        B start(String agentId, String codec, String credentials, AgentSession.Opener opener) throws IOException;
    }

    protected final AgentSession agent;
    protected final ForwardStore store;
    protected final BridgeStreams streams;
    private final ReportStats reports = new ReportStats();
    private final AtomicBoolean closing = new AtomicBoolean();

    /**
     * @param who the bridge, as log lines and errors name it ("the MQTT bridge")
     * @param config its streams and store
     * @param topics the topic each stream is published to
     */
    protected ForwardingBridge(String who, ForwardingConfig config, ForwardStore store, Topics topics) {
        this.agent = new AgentSession(who);
        this.store = store;
        this.streams = new BridgeStreams(agent, topics, config.streamsFile(), reports, new BridgeStreams.Watcher() {
            @Override
            public void started(StreamSpec spec) {
                streamStarted(spec);
            }

            @Override
            public void ended(StreamSpec spec) {
                streamEnded(spec);
            }
        });
    }

    /**
     * A bridge as an agent extension: once the agent listens, {@code starter} starts it on a session
     * of the agent's own (named {@code session}, with the agent's in-process credentials); it closes
     * when the agent stops.
     *
     * @param started given the bridge once it started (to register its figures), or null
     */
    protected static <B extends ForwardingBridge> AgentExtension extension(String session, Starter<B> starter,
                                                                           Consumer<B> started) {
        return agent -> {
            B bridge = starter.start(agent.agentId(), agent.codecName(), agent.inProcessCredentials(),
                    sink -> agent.openSession(session, () -> true, sink));
            if (started != null) {
                started.accept(bridge);
            }
            return bridge;
        };
    }

    /**
     * Starts {@code bridge}'s sender (an unreachable server is retried, not an error), then opens
     * its session on the agent; closes it if that fails.
     *
     * @throws IOException when the agent refuses the session or a stream
     */
    protected static <B extends ForwardingBridge> B start(B bridge, AgentSession.Opener opener, String codec,
                                                          String credentials) throws IOException {
        try {
            bridge.startSender();
            bridge.open(opener, codec, credentials);
        } catch (IOException | RuntimeException e) {
            bridge.close();
            throw e;
        }
        return bridge;
    }

    /** Starts the thread that empties the store towards the server. */
    protected abstract void startSender();

    /** Opens the session on the agent ({@link AgentSession#open}) and sets up the streams. */
    protected abstract void open(AgentSession.Opener opener, String codec, String credentials) throws IOException;

    /** Lets the sender send what waits for up to {@code drain} while the server takes it, then stops it. */
    protected abstract void stopSender(Duration drain);

    /** The bridge started a stream on the agent; nothing by default. */
    protected void streamStarted(StreamSpec spec) {
    }

    /** A stream of the bridge's ended, whoever ended it; nothing by default. */
    protected void streamEnded(StreamSpec spec) {
    }

    /** Whether the bridge is closing: the end of its session and streams is then no news. */
    protected boolean isClosing() {
        return closing.get();
    }

    /** The session ended: said in the log when the agent ended it while the bridge was running. */
    protected void sessionClosed(boolean byAgent) {
        if (byAgent && !isClosing()) {
            LOG.warn("the agent closed {}'s session; nothing more is forwarded", agent.who());
        }
    }

    /** Stream messages the streams' report filters let through: readings, and window aggregates. */
    public long sent() {
        return reports.sent();
    }

    /** Readings not forwarded by themselves: within a stream's deadband, or folded into a window's aggregate. */
    public long suppressed() {
        return reports.suppressed();
    }

    /** Entries waiting in the store. */
    public long pending() {
        return store.size();
    }

    /**
     * Ends its session (its streams stop), lets the sender send what waits for up to two seconds
     * while the server takes it; the rest stays in the store for the next start.
     */
    @Override
    public final void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        streams.close();
        agent.close();
        stopSender(DRAIN_ON_CLOSE);
        store.close();
    }
}
