package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.rmi.RmiTransportProvider;

/** The rmi agent against idle and descriptor-exhausting peers. */
class RmiHostilePeerConformanceTest extends AbstractHostilePeerConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(RmiTransportProvider.NAME);
    }

    @Override
    protected int threadsPerIdleConnection() {
        return 1; // RMI's connection handler: the blocking baseline
    }
}
