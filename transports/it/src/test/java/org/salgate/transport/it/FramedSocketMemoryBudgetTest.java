package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.socket.SocketTransportProvider;

/** The socket agent's one memory budget, against peers that never read and peers that hold unfinished frames. */
class FramedSocketMemoryBudgetTest extends AbstractFramedMemoryBudgetTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(SocketTransportProvider.NAME);
    }

    /** Its reader blocks writing to a peer that stops reading, and so stops reading that peer. */
    @Override
    protected boolean queuesForAPeerThatStopsReading() {
        return false;
    }
}
