package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

/** The Mina transport against the transport-level suite, over TLS. */
class MinaTlsTransportConformanceTest extends MinaTransportConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
