package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.socket.SocketTransportProvider;

/** The socket agent against idle and descriptor-exhausting peers. */
class SocketHostilePeerConformanceTest extends AbstractHostilePeerConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(SocketTransportProvider.NAME);
    }

    @Override
    protected int threadsPerIdleConnection() {
        return 1; // a reader; the writer starts with the first answer, which a silent peer never gets
    }
}
