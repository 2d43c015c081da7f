package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** TLS mismatches over the Mina transport. */
class MinaTlsRefusalTest extends AbstractTlsRefusalTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("mina");
    }
}
