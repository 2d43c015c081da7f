package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.mina.MinaTransportProvider;

/**
 * The MINA transport's client on a plain socket, whose sender writes its request and whose waiting
 * caller reads its answer on its own thread, MINA's processor loop reading the rest of the time.
 */
class MinaCallerReadTest extends AbstractCallerReadTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(MinaTransportProvider.NAME);
    }
}
