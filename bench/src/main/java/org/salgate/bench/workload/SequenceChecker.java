package org.salgate.bench.workload;

import java.util.HashSet;
import java.util.Set;

/**
 * Checks the sequence numbers of one stream (from 0, or from the first one seen for a stream joined
 * late, such as a shared one; no gaps): counts lost, duplicated and
 * out-of-order messages. A late message that fills a gap counts as reordered, not lost. Remembers
 * at most {@value #MAX_TRACKED_GAPS} missing numbers; gaps beyond that count as lost for good.
 * Not thread-safe: one stream is delivered on one thread at a time.
 */
public final class SequenceChecker {

    static final int MAX_TRACKED_GAPS = 100_000;

    private final Set<Long> missing = new HashSet<>();
    private final boolean fromFirstSeen;
    private boolean seenAny;
    private long next;

    /** A checker of a stream numbered from 0. */
    public SequenceChecker() {
        this(false);
    }

    /** @param fromFirstSeen whether the numbers start at the first one seen (a stream joined late) rather than 0 */
    public SequenceChecker(boolean fromFirstSeen) {
        this.fromFirstSeen = fromFirstSeen;
    }
    private long received;
    private long lost;
    private long duplicated;
    private long reordered;

    public void accept(long seq) {
        received++;
        if (fromFirstSeen && !seenAny) {
            next = seq;
        }
        seenAny = true;
        if (seq == next) {
            next++;
        } else if (seq > next) {
            for (long s = next; s < seq && missing.size() < MAX_TRACKED_GAPS; s++) {
                missing.add(s);
            }
            lost += seq - next;
            next = seq + 1;
        } else if (missing.remove(seq)) {
            reordered++;
            lost--;
        } else {
            duplicated++;
        }
    }

    public long received() {
        return received;
    }

    /** Numbers skipped and not (yet) received late. */
    public long lost() {
        return lost;
    }

    public long duplicated() {
        return duplicated;
    }

    public long reordered() {
        return reordered;
    }
}
