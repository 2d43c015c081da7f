package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** The sessions' budget over the xSocket transport, raw frames included. */
class XsocketSessionLimitsTest extends AbstractFramedSessionLimitsTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("xsocket");
    }
}
