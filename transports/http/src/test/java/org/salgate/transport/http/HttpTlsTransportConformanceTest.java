package org.salgate.transport.http;

import org.salgate.transport.tck.*;

/** The HTTP transport against the transport-level suite, over TLS. */
class HttpTlsTransportConformanceTest extends HttpTransportConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
