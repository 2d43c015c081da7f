package org.salgate.mqtt;

import java.util.function.Consumer;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.salgate.agent.AgentExtension;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.model.Call;
import org.salgate.model.Event;
import org.salgate.wire.EventNotice;
import org.salgate.wire.Message;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.SensorMl;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.salgate.mqtt.sparkplug.SparkplugMetrics;
import org.salgate.mqtt.sparkplug.SparkplugNode;
import org.salgate.mqtt.sparkplug.SparkplugTopics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes an agent to an MQTT broker. It talks to the agent as a client would, through one
 * in-process {@link BridgeSession}: it describes every sensor (retained SensorML), sets up and
 * starts the configured streams, and subscribes to events. Readings and events go through the
 * on-disk store-and-forward queue to the broker; descriptions and the agent's status are retained
 * messages published on every connect.
 */
public final class MqttBridge extends ForwardingBridge {

    private static final Logger LOG = LoggerFactory.getLogger(MqttBridge.class);

    private final MqttBridgeConfig config;
    private final Topics topics;
    private final MqttPublisher publisher;
    /** Home Assistant's discovery documents, or null when not asked for. */
    private final HomeAssistant homeAssistant;
    private final AtomicLong queued = new AtomicLong();
    /** The Sparkplug B edge node the bridge publishes as, or null for salgate's own topics. */
    private final SparkplugNode sparkplug;
    /** The readings' line protocol when the payload format is InfluxDB's, else null. */
    private LineProtocol lines;

    private MqttBridge(MqttBridgeConfig config, String agentId, Topics topics, ForwardStore store,
                       MqttPublisher publisher, SparkplugNode sparkplug) {
        super("the MQTT bridge", config, store, topics);
        this.config = config;
        this.sparkplug = sparkplug;
        this.topics = topics;
        this.publisher = publisher;
        this.homeAssistant = config.homeAssistantPrefix() == null ? null
                : new HomeAssistant(config.homeAssistantPrefix(), agentId, topics, publisher::retain);
    }

    @Override
    protected void streamStarted(StreamSpec spec) {
        if (homeAssistant != null) {
            homeAssistant.streamStarted(spec);
        }
    }

    @Override
    protected void streamEnded(StreamSpec spec) {
        if (homeAssistant != null) {
            homeAssistant.streamEnded(spec);
        }
    }

    /**
     * The bridge as an agent extension: once the agent listens, it starts a bridge on a session of
     * the agent's own (with the agent's in-process credentials), and closes it when the agent stops.
     *
     * @param started given the bridge once it started (to register its figures), or null
     */
    public static AgentExtension extension(MqttBridgeConfig config, Consumer<MqttBridge> started) {
        return extension("mqtt", (agentId, codec, credentials, opener) -> start(config, agentId, codec, credentials,
                opener), started);
    }

    /**
     * Opens the store, starts connecting to the broker (in the background: an unreachable broker is
     * retried, not an error), then sets up the configured streams on the agent.
     *
     * @param agentId the agent's id, the second level of every topic
     * @param codec the agent's codec, which the session's hello must name
     * @param credentials what the session's hello presents: the agent's in-process credentials
     * @throws IOException when the store cannot be opened, or the agent refuses the session or a stream
     */
    public static MqttBridge start(MqttBridgeConfig config, String agentId, String codec, String credentials,
                                   AgentSession.Opener opener) throws IOException {
        Topics topics = new Topics(config.topicPrefix(), agentId);
        String clientId = config.clientId() != null ? config.clientId() : "salgate-" + Topics.level(agentId);
        ForwardStore store = config.openStore("mqtt-" + Topics.level(clientId) + ".mv.db");
        MqttPublisher publisher;
        AtomicReference<MqttBridge> self = new AtomicReference<>();
        SparkplugNode sparkplug = config.sparkplugGroup() == null ? null : new SparkplugNode(new SparkplugTopics(
                config.sparkplugGroup(), config.sparkplugNode() != null ? config.sparkplugNode()
                        : SparkplugTopics.device(agentId)), Clock.systemUTC(),
                config.sparkplugWrites() ? (sensor, command, argument, value) -> self.get().write(sensor, command,
                        argument, value) : null);
        try {
            publisher = new MqttPublisher(config, clientId, topics, store, sparkplug);
        } catch (MqttException | IllegalArgumentException e) {
            store.close();
            throw new IOException("cannot use the MQTT broker URL " + config.serverUri() + ": " + e.getMessage(), e);
        }
        MqttBridge bridge = new MqttBridge(config, agentId, topics, store, publisher, sparkplug);
        self.set(bridge);
        if (config.payloadFormat() == MqttBridgeConfig.PayloadFormat.INFLUX) {
            bridge.lines = new LineProtocol(LineProtocol.DEFAULT_MEASUREMENT, agentId, LineProtocol.Precision.NS);
        }
        return start(bridge, opener, codec, credentials);
    }

    @Override
    protected void startSender() {
        publisher.start();
    }

    /** Lets the queue drain for up to {@code drain} while connected, publishes {@code offline} and disconnects. */
    @Override
    protected void stopSender(Duration drain) {
        publisher.close(drain);
    }

    @Override
    protected void open(AgentSession.Opener opener, String codec, String credentials) throws IOException {
        agent.open(opener, new Sink(), "mqtt-bridge", codec, credentials);
        if (config.events() || config.followsEvents() || sparkplug != null) {
            agent.call(new Call.SubscribeEvents(), Result.Ack.class, "subscribing to events");
        }
        Result.Sensors sensors = agent.call(new Call.ListSensors(false), Result.Sensors.class, "listing sensors");
        for (SensorInfo s : sensors.sensors()) {
            if (sparkplug != null) {
                sparkplug.define(s.id(), SparkplugMetrics.of(agent.call(new Call.ListCommands(s.id()), Result.Document.class,
                        "listing the commands of " + s.id()).xml(), config.sparkplugWrites()));
            } else {
                describe(s.id());
            }
        }
        streams.start(config.streams());
        if (sparkplug != null) {
            LOG.info("MQTT bridge to {} in Sparkplug B: edge node {} of group {}, {} as devices, {}", config.serverUri(),
                    sparkplug.topics().node(), sparkplug.topics().group(), count(sensors.sensors().size(), "sensor"),
                    count(streams.size(), "stream"));
            return;
        }
        LOG.info("MQTT bridge to {}: {} described under {}, {}{}{}{}", config.serverUri(),
                count(sensors.sensors().size(), "sensor"), topics.all(), count(streams.size(), "stream"),
                config.streamsFile() != null ? " (with those of " + config.streamsFile() + ")" : "",
                config.events() ? ", events on " + topics.events() : "",
                homeAssistant != null ? ", Home Assistant discovery under " + config.homeAssistantPrefix() + "/" : "");
    }

    private void describe(String sensorId) {
        agent.send(new Call.DescribeSensor(sensorId)).whenComplete((r, error) -> {
            if (r instanceof Result.Document doc) {
                publisher.retain(topics.description(sensorId), Payloads.text(doc.xml()));
                if (homeAssistant != null) {
                    try {
                        homeAssistant.described(SensorMl.read(doc.xml()));
                    } catch (DocumentException e) {
                        LOG.warn("no Home Assistant entity for {}: its description does not read: {}", sensorId,
                                e.getMessage());
                    }
                }
            } else if (error == null) {
                LOG.warn("no description of {} for MQTT: {}", sensorId, r);
            }
        });
    }

    /** Messages published and acknowledged by the broker since the start. */
    public long published() {
        return publisher.published();
    }

    /** Messages dropped: the queue was full, they waited too long, or the broker refused them. */
    public long dropped() {
        return store.dropped() + store.expired() + publisher.refused();
    }

    /** Readings and events handed to the queue since the start. */
    public long queued() {
        return queued.get();
    }

    /** Whether the broker connection is up now. */
    public boolean isConnected() {
        return publisher.isConnected();
    }

    /** The topics it publishes to. */
    public Topics topics() {
        return topics;
    }

    private void enqueue(String topic, byte[] payload) {
        store.append(topic, payload);
        queued.incrementAndGet();
        publisher.queued();
    }

    private final class Sink implements BridgeSession.Sink {
        @Override
        public void pushed(Message message) {
            if (message instanceof StreamData d) {
                String sensor = d.reading().sensorId();
                streams.offer(d, (t, r) -> {
                    String command = t.spec().commandId();
                    enqueue(sparkplug != null ? sparkplug.dataTopic(sensor) : t.topic(),
                            lines != null ? lines.report(r, command) : Payloads.report(r, command));
                });
            } else if (message instanceof EventNotice n) {
                Event e = n.event();
                if (sparkplug != null) {
                    sparkplugEvent(e);
                    return;
                }
                if (config.events()) {
                    enqueue(topics.events(), Payloads.event(e));
                }
                if (e.type() == Event.Type.SENSOR_ADDED) {
                    describe(e.subject());
                    streams.sensorAdded(e.subject());
                } else if (e.type() == Event.Type.SENSOR_REMOVED) {
                    publisher.retain(topics.description(e.subject()), new byte[0]);
                    if (homeAssistant != null) {
                        homeAssistant.sensorRemoved(e.subject());
                    }
                }
            } else if (message instanceof StreamEnded ended) {
                streams.ended(ended);
            }
        }

        @Override
        public void closed(boolean byAgent) {
            sessionClosed(byAgent);
        }
    }

    /** A sensor added becomes a device (born once its commands are listed), a sensor removed a DDEATH. */
    private void sparkplugEvent(Event e) {
        if (e.type() == Event.Type.SENSOR_ADDED) {
            agent.send(new Call.ListCommands(e.subject())).whenComplete((r, error) -> {
                if (r instanceof Result.Document doc) {
                    sparkplug.define(e.subject(), SparkplugMetrics.of(doc.xml(), config.sparkplugWrites()));
                    publisher.queued();
                } else {
                    LOG.warn("no commands of {} for its Sparkplug DBIRTH: {}", e.subject(), error != null ? error : r);
                }
            });
            streams.sensorAdded(e.subject());
        } else if (e.type() == Event.Type.SENSOR_REMOVED) {
            sparkplug.remove(e.subject());
            publisher.queued();
        }
    }

    /** A Sparkplug host's write: the sensor's command executed as a client would; the agent checks the value. */
    private void write(String sensor, String command, String argument, String value) {
        if (!agent.isOpened()) {
            LOG.warn("refused a Sparkplug write to {} of {}: the bridge's session is not open", command, sensor);
            return;
        }
        agent.send(new Call.Execute(sensor, command, java.util.Map.of(argument, value))).whenComplete((r, error) -> {
            if (r instanceof Result.Failure f) {
                LOG.warn("the agent refused the Sparkplug write {}={} to {} ({}): {} ({})", argument, value, sensor,
                        command, f.message(), f.code());
            } else if (error != null) {
                LOG.warn("the Sparkplug write {}={} to {} ({}) failed: {}", argument, value, sensor, command,
                        error.getMessage());
            }
        });
    }

    /** "1 sensor", "2 sensors": a count for a log line. */
    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
