package org.salgate.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SequenceCheckerTest {

    private static SequenceChecker feed(long... seqs) {
        SequenceChecker c = new SequenceChecker();
        for (long s : seqs) {
            c.accept(s);
        }
        return c;
    }

    @Test
    void aStreamJoinedLateStartsAtItsFirstNumberAndStillCountsLaterGaps() {
        SequenceChecker c = new SequenceChecker(true);
        for (long s : new long[] {40, 41, 44, 45}) {
            c.accept(s);
        }
        assertEquals(4, c.received());
        assertEquals(2, c.lost(), "42 and 43; nothing before 40");
        assertEquals(40, feed(40, 41).lost(), "a stream numbered from 0 missed 0-39");
    }

    @Test
    void inOrderStreamHasNoErrors() {
        SequenceChecker c = feed(0, 1, 2, 3);
        assertEquals(4, c.received());
        assertEquals(0, c.lost() + c.duplicated() + c.reordered());
    }

    @Test
    void gapCountsAsLost() {
        SequenceChecker c = feed(0, 1, 4, 5);
        assertEquals(2, c.lost());
        assertEquals(0, c.reordered());
    }

    @Test
    void lateMessageFillingAGapIsReorderedNotLost() {
        SequenceChecker c = feed(0, 2, 1, 3);
        assertEquals(0, c.lost());
        assertEquals(1, c.reordered());
    }

    @Test
    void repeatedMessageIsDuplicated() {
        SequenceChecker c = feed(0, 1, 1, 2);
        assertEquals(1, c.duplicated());
        assertEquals(0, c.lost());
    }

    @Test
    void streamNotStartingAtZeroCountsTheMissingStart() {
        assertEquals(3, feed(3, 4).lost());
    }
}
