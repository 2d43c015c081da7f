package org.salgate.transport.socket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.socket.SocketTransportProvider;

/** The socket transport over TLS against clients that send their hello with their last handshake record. */
class SocketEagerTlsClientTest extends AbstractEagerTlsClientTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(SocketTransportProvider.NAME);
    }
}
