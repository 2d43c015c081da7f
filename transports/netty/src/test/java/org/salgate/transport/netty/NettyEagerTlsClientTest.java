package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.netty.NettyTransportProvider;

/** The netty transport over TLS against clients that send their hello with their last handshake record. */
class NettyEagerTlsClientTest extends AbstractEagerTlsClientTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(NettyTransportProvider.NAME);
    }
}
