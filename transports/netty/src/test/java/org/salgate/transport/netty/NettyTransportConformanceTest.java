package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** The Netty transport against the transport-level suite. */
class NettyTransportConformanceTest extends AbstractFramedTransportConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("netty");
    }
}
