package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

/** The Xsocket transport against the transport-level suite, over TLS. */
class XsocketTlsTransportConformanceTest extends XsocketTransportConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
