package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.netty.NettyTransportProvider;

/** An HTTP request to the netty transport's port. */
class NettyHttpOnBinaryPortTest extends AbstractHttpOnBinaryPortTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(NettyTransportProvider.NAME);
    }
}
