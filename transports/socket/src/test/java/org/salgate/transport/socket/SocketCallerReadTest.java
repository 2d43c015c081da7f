package org.salgate.transport.socket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.socket.SocketTransportProvider;

/** The blocking-socket transport's client, whose waiting caller reads a plain TCP connection itself. */
class SocketCallerReadTest extends AbstractCallerReadTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(SocketTransportProvider.NAME);
    }

    /**
     * A blocking read cannot be woken: the caller reads in slices that double from 1 ms to 50 ms
     * and looks at its stage between them; one completed at 125 ms is seen at the 163 ms slice end.
     */
    @Override
    protected long latestLeaveAfterCompletionElsewhereMillis() {
        return 60;
    }
}
