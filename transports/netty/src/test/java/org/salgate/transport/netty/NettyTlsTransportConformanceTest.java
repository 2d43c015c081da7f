package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

/** The Netty transport against the transport-level suite, over TLS. */
class NettyTlsTransportConformanceTest extends NettyTransportConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
