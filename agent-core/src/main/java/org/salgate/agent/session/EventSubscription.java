package org.salgate.agent.session;

import java.util.function.Consumer;
import org.salgate.agent.core.Counts;
import org.salgate.agent.core.Micros;
import org.salgate.transport.Session;
import org.salgate.model.Event;
import org.salgate.wire.EventNotice;

/**
 * One session's event subscription, under the session's outbound bound: an event that finds the
 * session unwritable is not queued but counted, and the count reaches the client with the next
 * event it gets, or as an {@link Event.Type#EVENTS_MISSED} gap notice as soon as the session is
 * writable again. A subscriber that stops reading so costs the agent a counter, never memory.
 */
final class EventSubscription implements Consumer<Event> {

    private final Session session;
    private long missed;

    EventSubscription(Session session) {
        this.session = session;
    }

    @Override
    public synchronized void accept(Event event) {
        if (!session.isWritable()) {
            missed++;
            return;
        }
        session.send(new EventNotice(event, missed));
        missed = 0;
    }

    /** The session can take frames again: tells the client how many events it missed, if any. */
    synchronized void writable() {
        if (missed == 0 || !session.isWritable()) {
            return;
        }
        session.send(new EventNotice(new Event(Event.Type.EVENTS_MISSED, "", null, Micros.now(),
                Counts.of(missed, "event") + " not delivered because this client was not reading"), missed));
        missed = 0;
    }
}
