package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.xsocket.XsocketTransportProvider;

/** The xSocket transport against the transport-level suite. */
class XsocketTransportConformanceTest extends AbstractFramedTransportConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(XsocketTransportProvider.NAME);
    }
}
