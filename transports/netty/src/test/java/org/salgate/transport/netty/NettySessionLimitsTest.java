package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** The sessions' budget over the Netty transport, raw frames included. */
class NettySessionLimitsTest extends AbstractFramedSessionLimitsTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("netty");
    }
}
