package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** The sessions' budget over the Mina transport, raw frames included. */
class MinaSessionLimitsTest extends AbstractFramedSessionLimitsTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("mina");
    }
}
