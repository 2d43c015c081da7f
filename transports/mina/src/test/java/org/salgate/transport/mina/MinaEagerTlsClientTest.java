package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.mina.MinaTransportProvider;

/** The mina transport over TLS against clients that send their hello with their last handshake record. */
class MinaEagerTlsClientTest extends AbstractEagerTlsClientTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(MinaTransportProvider.NAME);
    }
}
