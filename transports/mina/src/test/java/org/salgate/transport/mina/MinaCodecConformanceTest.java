package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** Every codec over the Mina transport. */
class MinaCodecConformanceTest extends AbstractCodecConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("mina");
    }
}
