package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.mina.MinaTransportProvider;

/** The MINA transport against the transport-level suite. */
class MinaTransportConformanceTest extends AbstractFramedTransportConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(MinaTransportProvider.NAME);
    }
}
