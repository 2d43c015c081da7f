package org.salgate.bench.score;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RatioTest {

    @Test
    void ratesAreTransportOverBaseline() {
        assertEquals(200.0, Direction.HIGHER_IS_BETTER.ratio(20, 10), 1e-9);
    }

    @Test
    void timesAndResourcesAreBaselineOverTransport() {
        // half the round trip or half the CPU of the baseline is twice as good
        assertEquals(200.0, Direction.LOWER_IS_BETTER.ratio(5, 10), 1e-9);
    }

    @Test
    void zeroOrMissingValuesGiveNoRatio() {
        assertTrue(Double.isNaN(Direction.HIGHER_IS_BETTER.ratio(0, 10)));
        assertTrue(Double.isNaN(Direction.LOWER_IS_BETTER.ratio(5, 0)));
    }

    @Test
    void typesAreSummedBeforeTheRatioAndCountsAveraged() {
        // RTT at 1 client: transport 10+30 = 40 us, baseline 20+60 = 80 us -> 200 %
        // RTT at 10 clients: transport 100 us, baseline 100 us -> 100 %
        MethodRatio m = MethodRatio.of(
                Map.of(1, List.of(10.0, 30.0), 10, List.of(50.0, 50.0)),
                Map.of(1, List.of(20.0, 60.0), 10, List.of(40.0, 60.0)),
                Direction.LOWER_IS_BETTER);
        assertEquals(200.0, m.perClients().get(1), 1e-9);
        assertEquals(100.0, m.perClients().get(10), 1e-9);
        assertEquals(150.0, m.mean(), 1e-9);
    }

    @Test
    void summingDiffersFromAveragingPerTypeRatios() {
        // a slow large type dominates the sum: this is the paper's "cumulative" behaviour
        MethodRatio m = MethodRatio.of(Map.of(1, List.of(1.0, 100.0)), Map.of(1, List.of(2.0, 100.0)),
                Direction.LOWER_IS_BETTER);
        assertEquals(100.0 * 102 / 101, m.mean(), 1e-9);
    }

    @Test
    void scalabilityOfARateComparesGrowthWithTheBaseline() {
        // transport grows 1000 -> 4000 calls/s (x4), baseline 1000 -> 2000 (x2): scales twice as well
        MethodRatio m = MethodRatio.of(Map.of(1, List.of(1000.0), 100, List.of(4000.0)),
                Map.of(1, List.of(1000.0), 100, List.of(2000.0)), Direction.HIGHER_IS_BETTER);
        assertEquals(200.0, m.scalability(), 1e-9);
    }

    @Test
    void scalabilityOfATimeOrResourceIsInverted() {
        // transport's RTT grows x2, baseline's x4: the transport holds up twice as well
        MethodRatio m = MethodRatio.of(Map.of(1, List.of(10.0), 30, List.of(99.0), 100, List.of(20.0)),
                Map.of(1, List.of(10.0), 30, List.of(1.0), 100, List.of(40.0)), Direction.LOWER_IS_BETTER);
        assertEquals(200.0, m.scalability(), 1e-9);
    }

    @Test
    void oneClientCountHasNoScalability() {
        MethodRatio m = MethodRatio.of(Map.of(1, List.of(1.0)), Map.of(1, List.of(1.0)), Direction.HIGHER_IS_BETTER);
        assertTrue(Double.isNaN(m.scalability()));
        assertEquals(100.0, m.mean(), 1e-9);
    }

    @Test
    void mismatchedTypesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> MethodRatio.of(Map.of(1, List.of(1.0, 2.0)),
                Map.of(1, List.of(1.0)), Direction.HIGHER_IS_BETTER));
    }
}
