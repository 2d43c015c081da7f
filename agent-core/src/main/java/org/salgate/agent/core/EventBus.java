package org.salgate.agent.core;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.salgate.model.Event;
import org.salgate.model.SensorState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers agent events to subscribers. Subscribers must not block (they are transport sessions
 * whose send never blocks); one that throws is logged and keeps its subscription.
 */
public final class EventBus {

    private static final Logger LOG = LoggerFactory.getLogger(EventBus.class);

    private final Map<Object, Consumer<Event>> subscribers = new ConcurrentHashMap<>();

    /** Subscribes {@code sink} under {@code key}, replacing an earlier subscription with that key. */
    public void subscribe(Object key, Consumer<Event> sink) {
        subscribers.put(key, sink);
    }

    /** Ends the subscription under {@code key}; nothing happens when there is none. */
    public void unsubscribe(Object key) {
        subscribers.remove(key);
    }

    /** How many subscribers there are. */
    public int size() {
        return subscribers.size();
    }

    /** Sends an event to every subscriber. */
    public void publish(Event event) {
        LOG.debug("event {} {} {}", event.type(), event.subject(), event.state() == null ? "" : event.state());
        for (Consumer<Event> sink : subscribers.values()) {
            try {
                sink.accept(event);
            } catch (RuntimeException e) {
                LOG.warn("an event subscriber failed on {} {}", event.type(), event.subject(), e);
            }
        }
    }

    /** Publishes an event of a type other than {@link Event.Type#SENSOR_STATE}. */
    public void publish(Event.Type type, String subject, String detail) {
        publish(new Event(type, subject, null, Micros.now(), detail));
    }

    /** Publishes a {@link Event.Type#SENSOR_STATE} event. */
    public void publishState(String sensorId, SensorState state, String detail) {
        publish(new Event(Event.Type.SENSOR_STATE, sensorId, state, Micros.now(), detail));
    }
}
