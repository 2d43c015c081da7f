package org.salgate.transport.rmi;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.rmi.RmiTransportProvider;

/**
 * The RMI transport against the transport-level suite. RMI is not a byte stream (frames travel as
 * byte[] arguments of remote calls), so the framed transports' raw-bytes tests
 * ({@link AbstractFramedTransportConformanceTest}) cannot reach it; its own module tests the frame
 * limit and the deserialization filter instead.
 */
class RmiTransportConformanceTest extends AbstractTransportConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(RmiTransportProvider.NAME);
    }
}
