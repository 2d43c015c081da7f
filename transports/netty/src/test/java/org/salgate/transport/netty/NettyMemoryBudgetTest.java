package org.salgate.transport.netty;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.testing.SessionEndings;

/** Every way a netty session ends gives back its share of the server's memory budget. */
class NettyMemoryBudgetTest {

    @Test
    @Timeout(120)
    void everyWayASessionEndsGivesBackItsShareOfTheBudget() throws Exception {
        SessionEndings.assertEveryEndingGivesBackTheBudget(new NettyTransportProvider(),
                server -> ((NettyTransportProvider.Server) server).budget);
    }
}
