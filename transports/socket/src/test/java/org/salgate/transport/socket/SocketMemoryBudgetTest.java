package org.salgate.transport.socket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.testing.SessionEndings;

/** Every way a socket session ends gives back its share of the server's memory budget. */
class SocketMemoryBudgetTest {

    @Test
    @Timeout(120)
    void everyWayASessionEndsGivesBackItsShareOfTheBudget() throws Exception {
        SessionEndings.assertEveryEndingGivesBackTheBudget(new SocketTransportProvider(),
                server -> ((SocketTransportServer) server).budget());
    }
}
