package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.mina.MinaTransportProvider;

/** The mina agent against idle and descriptor-exhausting peers. */
class MinaHostilePeerConformanceTest extends AbstractHostilePeerConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(MinaTransportProvider.NAME);
    }
}
