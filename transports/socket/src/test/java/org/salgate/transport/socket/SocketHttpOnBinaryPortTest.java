package org.salgate.transport.socket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.socket.SocketTransportProvider;

/** An HTTP request to the socket transport's port. */
class SocketHttpOnBinaryPortTest extends AbstractHttpOnBinaryPortTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(SocketTransportProvider.NAME);
    }
}
