package org.salgate.mqtt;

import java.util.List;
import org.eclipse.paho.mqttv5.common.MqttException;

/**
 * A convention the bridge publishes in instead of its own topics, such as Sparkplug B: it chooses
 * the last will of each connection, what each connection starts with, and how a stored message is
 * put on the wire. Its publishing methods are called on the bridge's one sender thread, in order;
 * the bridge stops by disconnecting with its will (MQTT 5's reason code 4), so the will is the
 * convention's last word.
 */
public interface MqttConvention {

    /** Publishes on the current connection; throws when the client does not take the message. */
    @FunctionalInterface
    interface Sender {
        void publish(String topic, byte[] payload, int qos, boolean retained) throws MqttException;
    }

    /** A message: the will of a connection, or one to publish. */
    record Message(String topic, byte[] payload, int qos, boolean retained) {}

    /** The last will of the next connection; called before every connection attempt. */
    Message nextWill();

    /** The topics to subscribe to (QoS 1) on every connection. */
    List<String> subscriptions();

    /** A message arrived on one of the {@link #subscriptions()}; called on Paho's thread. */
    void arrived(String topic, byte[] payload);

    /**
     * Publishes what must come before the next stored message: the births on a new connection
     * ({@code newConnection}), and whatever the convention has to say since (a rebirth asked for,
     * a device gone).
     */
    void control(Sender sender, boolean newConnection) throws MqttException;

    /** Publishes a message of the store; the store removes it once this returns. */
    void forward(Sender sender, String topic, byte[] stored) throws MqttException;
}
