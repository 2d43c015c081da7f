package org.salgate.transport.mina;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.testing.SessionEndings;

/** Every way a mina session ends gives back its share of the server's memory budget. */
class MinaMemoryBudgetTest {

    @Test
    @Timeout(120)
    void everyWayASessionEndsGivesBackItsShareOfTheBudget() throws Exception {
        SessionEndings.assertEveryEndingGivesBackTheBudget(new MinaTransportProvider(),
                server -> ((MinaServer) server).budget());
    }
}
