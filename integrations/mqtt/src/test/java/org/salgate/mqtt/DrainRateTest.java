package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DrainRateTest {

    private static final long MS = 1_000_000L;

    @Test
    void aFreshDrainSendsOneMessageThenSpacesThemEvenly() {
        DrainRate rate = new DrainRate(100);
        rate.restart(0);
        assertEquals(0, rate.take(0));
        assertEquals(10 * MS, rate.take(0), "the second waits a hundredth of a second");
        assertEquals(4 * MS, rate.take(6 * MS));
        assertEquals(0, rate.take(10 * MS));
    }

    @Test
    void overASecondItSendsNoMoreThanTheRateAndTheBurst() {
        DrainRate rate = new DrainRate(100);
        rate.restart(0);
        int sent = 0;
        for (long now = 0; now <= 1000 * MS; now += MS / 2) {
            while (rate.take(now) == 0) {
                sent++;
            }
        }
        assertEquals(101, sent, "one at t=0 and one each 10 ms up to t=1 s");
    }

    @Test
    void aPauseSavesUpAtMostABurst() {
        DrainRate rate = new DrainRate(100);
        rate.restart(0);
        int sent = 0;
        while (rate.take(60_000 * MS) == 0) {
            sent++;
        }
        assertEquals(DrainRate.BURST + 1, sent);
    }

    @Test
    void zeroMeansNoLimit() {
        DrainRate rate = new DrainRate(0);
        assertFalse(rate.limits());
        rate.restart(0);
        for (int i = 0; i < 10_000; i++) {
            assertEquals(0, rate.take(0));
        }
    }

    @Test
    void aRateIsWrittenAsMessagesASecond() {
        assertEquals(500, DrainRate.parse("500/s"));
        assertEquals(20, DrainRate.parse(" 20 "));
        assertEquals(0, DrainRate.parse("0/s"));
        for (String bad : new String[] {"fast", "-1/s", "10/m", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DrainRate.parse(bad));
            assertTrue(e.getMessage().contains("500/s") && e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }
}
