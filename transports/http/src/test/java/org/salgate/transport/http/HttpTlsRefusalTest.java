package org.salgate.transport.http;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** TLS mismatches over the HTTP transport. */
class HttpTlsRefusalTest extends AbstractTlsRefusalTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("http");
    }
}
