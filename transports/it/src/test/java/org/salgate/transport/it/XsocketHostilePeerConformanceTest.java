package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.xsocket.XsocketTransportProvider;

/** The xsocket agent against idle and descriptor-exhausting peers. */
class XsocketHostilePeerConformanceTest extends AbstractHostilePeerConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(XsocketTransportProvider.NAME);
    }
}
