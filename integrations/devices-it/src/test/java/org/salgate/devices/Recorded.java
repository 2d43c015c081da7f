package org.salgate.devices;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.client.StreamListener;
import org.salgate.model.Reading;

/** The readings of one stream as they arrive, each with when it arrived ({@link System#nanoTime()}). */
final class Recorded implements StreamListener {

    record Arrival(long nanos, Reading reading) {
    }

    private final List<Arrival> arrivals = new ArrayList<>();
    private final AtomicLong gaps = new AtomicLong();

    @Override
    public synchronized void onReading(Reading reading) {
        arrivals.add(new Arrival(System.nanoTime(), reading));
    }

    @Override
    public void onGap(long missed, long nextSequence) {
        gaps.addAndGet(missed);
    }

    synchronized List<Arrival> arrivals() {
        return List.copyOf(arrivals);
    }

    /** Readings the client was told it missed. */
    long gaps() {
        return gaps.get();
    }

    /** The readings that arrived from {@code from} (inclusive) to {@code to} (exclusive), nanoTime. */
    List<Reading> between(long from, long to) {
        return arrivals().stream().filter(a -> a.nanos() >= from && a.nanos() < to).map(Arrival::reading).toList();
    }

    /** Readings per second from {@code from} to {@code to}. */
    double rate(long from, long to) {
        return between(from, to).size() / ((to - from) / 1e9);
    }

    /** The first sequence number that does not follow its predecessor's, or -1 when they all do. */
    long firstBreakInSequence() {
        List<Arrival> all = arrivals();
        for (int i = 1; i < all.size(); i++) {
            if (all.get(i).reading().sequence() != all.get(i - 1).reading().sequence() + 1) {
                return all.get(i).reading().sequence();
            }
        }
        return -1;
    }
}
