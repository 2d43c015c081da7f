package org.salgate.transport.socket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** Every codec over the Socket transport. */
class SocketCodecConformanceTest extends AbstractCodecConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("socket");
    }
}
