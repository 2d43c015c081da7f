package org.salgate.transport.rmi;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** Every codec over the Rmi transport. */
class RmiCodecConformanceTest extends AbstractCodecConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("rmi");
    }
}
