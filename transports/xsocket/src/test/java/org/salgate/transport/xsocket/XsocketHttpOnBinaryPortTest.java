package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.xsocket.XsocketTransportProvider;

/** An HTTP request to the xsocket transport's port. */
class XsocketHttpOnBinaryPortTest extends AbstractHttpOnBinaryPortTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(XsocketTransportProvider.NAME);
    }
}
