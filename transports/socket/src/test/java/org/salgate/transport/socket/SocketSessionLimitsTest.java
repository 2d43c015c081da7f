package org.salgate.transport.socket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** The sessions' budget over the Socket transport, raw frames included. */
class SocketSessionLimitsTest extends AbstractFramedSessionLimitsTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("socket");
    }
}
