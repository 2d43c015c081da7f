package org.salgate.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.salgate.mqtt.MqttCallbackAdapter;

/**
 * A separate MQTT client that records what the broker delivers under a topic filter, at QoS 1 with
 * a session the broker keeps for an hour, so that messages published while it was cut off (a broker
 * restart) are delivered when it reconnects.
 */
final class Subscriber implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A delivered message. */
    record Received(String topic, String payload, boolean retained) {
        JsonNode json() {
            try {
                return JSON.readTree(payload);
            } catch (IOException e) {
                throw new AssertionError("not JSON on " + topic + ": " + payload, e);
            }
        }
    }

    private final MqttAsyncClient client;
    final List<Received> received = new CopyOnWriteArrayList<>();

    private Subscriber(MqttAsyncClient client) {
        this.client = client;
    }

    static Subscriber subscribe(String url, String clientId, String filter) throws MqttException {
        return subscribe(url, clientId, filter, o -> { });
    }

    /** As {@link #subscribe(String, String, String)}, with connection options added (TLS, a user). */
    static Subscriber subscribe(String url, String clientId, String filter, Consumer<MqttConnectionOptions> options)
            throws MqttException {
        MqttAsyncClient c = new MqttAsyncClient(url, clientId, new MemoryPersistence());
        Subscriber s = new Subscriber(c);
        c.setCallback(new MqttCallbackAdapter() {
            @Override
            public void messageArrived(String topic, MqttMessage m) {
                s.received.add(new Received(topic, new String(m.getPayload(), StandardCharsets.UTF_8), m.isRetained()));
            }
        });
        MqttConnectionOptions o = new MqttConnectionOptions();
        o.setCleanStart(false);
        o.setSessionExpiryInterval(3600L);
        o.setAutomaticReconnect(true);
        o.setAutomaticReconnectDelay(1, 2);
        options.accept(o);
        c.connect(o).waitForCompletion(10_000);
        c.subscribe(new MqttSubscription(filter, 1)).waitForCompletion(10_000);
        return s;
    }

    boolean isConnected() {
        return client.isConnected();
    }

    List<Received> on(String topic) {
        return received.stream().filter(r -> r.topic().equals(topic)).toList();
    }

    /** Waits until a delivered message matches, failing after {@code timeout}. */
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
        throw new AssertionError("no " + what + " within " + timeout + "; received " + received.size() + " messages");
    }

    @Override
    public void close() throws MqttException {
        if (client.isConnected()) {
            client.disconnect().waitForCompletion(5000);
        }
        client.close(true);
    }
}
