package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.http.HttpTransportProvider;

/** The http agent against idle and descriptor-exhausting peers. */
class HttpHostilePeerConformanceTest extends AbstractHostilePeerConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(HttpTransportProvider.NAME);
    }
}
