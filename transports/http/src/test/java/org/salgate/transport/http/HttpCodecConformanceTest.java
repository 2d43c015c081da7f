package org.salgate.transport.http;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.http.HttpTransportProvider;

/** Every codec over the HTTP transport. */
class HttpCodecConformanceTest extends AbstractCodecConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(HttpTransportProvider.NAME);
    }
}
