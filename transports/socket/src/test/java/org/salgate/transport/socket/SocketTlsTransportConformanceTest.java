package org.salgate.transport.socket;

import org.salgate.transport.tck.*;

/** The Socket transport against the transport-level suite, over TLS. */
class SocketTlsTransportConformanceTest extends SocketTransportConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
