package org.salgate.transport.socket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.socket.SocketTransportProvider;

/** The blocking-socket transport against the transport-level suite. */
class SocketTransportConformanceTest extends AbstractFramedTransportConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(SocketTransportProvider.NAME);
    }
}
