package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** Every codec over the Xsocket transport. */
class XsocketCodecConformanceTest extends AbstractCodecConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("xsocket");
    }
}
