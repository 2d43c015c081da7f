package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** TLS mismatches over the Xsocket transport. */
class XsocketTlsRefusalTest extends AbstractTlsRefusalTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("xsocket");
    }
}
