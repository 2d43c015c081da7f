package org.salgate.transport.rmi;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** TLS mismatches over the Rmi transport. */
class RmiTlsRefusalTest extends AbstractTlsRefusalTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("rmi");
    }
}
