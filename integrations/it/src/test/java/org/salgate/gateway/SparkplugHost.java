package org.salgate.gateway;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.eclipse.tahu.message.SparkplugBPayloadDecoder;
import org.eclipse.tahu.message.model.Metric;
import org.eclipse.tahu.message.model.SparkplugBPayload;
import org.eclipse.tahu.model.MetricDataTypeMap;
import org.eclipse.tahu.protobuf.SparkplugBProto;
import org.salgate.mqtt.MqttCallbackAdapter;

/**
 * A Sparkplug host application for the tests, independent of the bridge's encoder: it decodes
 * every message of a group with Eclipse Tahu's {@link SparkplugBPayloadDecoder}, learns each
 * device's aliases and datatypes from its DBIRTH, and names the metrics of DDATA by them, as
 * Ignition or any host would. A DDATA metric whose alias no birth declared is kept with a null name.
 */
final class SparkplugHost implements AutoCloseable {

    /** A metric as the host understood it: name resolved from its alias when the message had none. */
    record Resolved(String name, Long alias, String datatype, Object value, boolean isNull, String engUnit,
                    long timestamp) {}

    /** A decoded message. */
    record Received(String topic, String type, String node, String device, Long seq, long timestamp,
                    List<Resolved> metrics) {
        Resolved metric(String name) {
            return metrics.stream().filter(m -> name.equals(m.name())).findFirst()
                    .orElseThrow(() -> new AssertionError("no metric " + name + " in " + this));
        }
    }

    private final MqttAsyncClient client;
    private final SparkplugBPayloadDecoder decoder = new SparkplugBPayloadDecoder();
    /** Per device (node/device): what its DBIRTH declared. */
    private final Map<String, MetricDataTypeMap> types = new HashMap<>();
    private final Map<String, Map<Long, String>> names = new HashMap<>();
    final List<Received> received = new CopyOnWriteArrayList<>();
    final List<String> failures = new CopyOnWriteArrayList<>();

    private SparkplugHost(MqttAsyncClient client) {
        this.client = client;
    }

    /** Connects and subscribes to {@code spBv1.0/<group>/#}. */
    static SparkplugHost start(String url, String group) throws MqttException {
        MqttAsyncClient c = new MqttAsyncClient(url, "host-" + group, new MemoryPersistence());
        SparkplugHost host = new SparkplugHost(c);
        c.setCallback(new MqttCallbackAdapter() {
            @Override
            public void messageArrived(String topic, MqttMessage m) {
                host.decode(topic, m.getPayload());
            }
        });
        MqttConnectionOptions o = new MqttConnectionOptions();
        o.setCleanStart(true);
        c.connect(o).waitForCompletion(10_000);
        c.subscribe(new MqttSubscription("spBv1.0/" + group + "/#", 1)).waitForCompletion(10_000);
        return host;
    }

    private synchronized void decode(String topic, byte[] payload) {
        String[] level = topic.split("/");
        String type = level[2];
        String node = level[3];
        String device = level.length > 4 ? level[4] : null;
        String key = node + "/" + device;
        try {
            if (type.equals("DBIRTH") || type.equals("NBIRTH")) {
                types.put(key, new MetricDataTypeMap());
                names.put(key, new HashMap<>());
            }
            SparkplugBPayload p = decoder.buildFromByteArray(payload, types.getOrDefault(key, new MetricDataTypeMap()));
            List<Resolved> metrics = new java.util.ArrayList<>();
            for (Metric m : p.getMetrics()) {
                String name = m.getName();
                if (type.endsWith("BIRTH") && m.getAlias() != null) {
                    types.get(key).addMetricDataType(m.getAlias(), m.getDataType());
                    names.get(key).put(m.getAlias(), name);
                }
                if (name == null && m.getAlias() != null) {
                    name = names.getOrDefault(key, Map.of()).get(m.getAlias());
                }
                String unit = m.getProperties() != null && m.getProperties().getPropertyValue("engUnit") != null
                        ? String.valueOf(m.getProperties().getPropertyValue("engUnit").getValue()) : null;
                metrics.add(new Resolved(name, m.getAlias(), m.getDataType() == null ? null : m.getDataType().toString(),
                        m.getValue(), Boolean.TRUE.equals(m.getIsNull()), unit,
                        m.getTimestamp() == null ? 0 : m.getTimestamp().getTime()));
            }
            received.add(new Received(topic, type, node, device, p.getSeq(),
                    p.getTimestamp() == null ? 0 : p.getTimestamp().getTime(), List.copyOf(metrics)));
        } catch (Exception e) {
            failures.add(topic + ": " + e);
        }
    }

    /** Publishes an NCMD asking the node for a rebirth, as a host does when it lost track. */
    void requestRebirth(String group, String node) throws MqttException {
        byte[] payload = SparkplugBProto.Payload.newBuilder().setTimestamp(System.currentTimeMillis()).setSeq(0)
                .addMetrics(SparkplugBProto.Payload.Metric.newBuilder().setName("Node Control/Rebirth")
                        .setDatatype(11).setBooleanValue(true))
                .build().toByteArray();
        client.publish("spBv1.0/" + group + "/NCMD/" + node, new MqttMessage(payload, 0, false, new MqttProperties()))
                .waitForCompletion(5000);
    }

    /** The messages of one edge node, in the order they arrived. */
    List<Received> of(String node) {
        return received.stream().filter(r -> r.node().equals(node)).toList();
    }

    /** Waits until a decoded message matches, failing after {@code timeout}. */
    Received await(Predicate<Received> match, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int from = 0;
        while (System.nanoTime() < deadline) {
            List<Received> now = List.copyOf(received);
            for (int i = from; i < now.size(); i++) {
                if (match.test(now.get(i))) {
                    return now.get(i);
                }
            }
            from = now.size();
            Thread.sleep(20);
        }
        throw new AssertionError("no " + what + " within " + timeout + "; received " + received.size()
                + " messages; decoding failures: " + failures);
    }

    @Override
    public void close() throws MqttException {
        if (client.isConnected()) {
            client.disconnect().waitForCompletion(5000);
        }
        client.close(true);
    }
}
