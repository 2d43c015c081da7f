package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.grpc.GrpcTransportProvider;

/** The grpc agent against idle and descriptor-exhausting peers. */
class GrpcHostilePeerConformanceTest extends AbstractHostilePeerConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(GrpcTransportProvider.NAME);
    }
}
