package org.salgate.transport.rmi;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** The sessions' budget over the RMI transport. */
class RmiSessionLimitsTest extends AbstractSessionLimitsTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("rmi");
    }
}
