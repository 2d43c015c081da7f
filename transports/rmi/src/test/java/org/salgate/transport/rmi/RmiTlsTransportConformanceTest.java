package org.salgate.transport.rmi;

import org.salgate.transport.tck.*;

/** The Rmi transport against the transport-level suite, over TLS. */
class RmiTlsTransportConformanceTest extends RmiTransportConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
