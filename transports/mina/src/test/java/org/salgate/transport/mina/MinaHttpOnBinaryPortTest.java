package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.mina.MinaTransportProvider;

/** An HTTP request to the mina transport's port. */
class MinaHttpOnBinaryPortTest extends AbstractHttpOnBinaryPortTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(MinaTransportProvider.NAME);
    }
}
