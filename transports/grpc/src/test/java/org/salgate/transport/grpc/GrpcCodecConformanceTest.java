package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** Every codec over the gRPC transport. */
class GrpcCodecConformanceTest extends AbstractCodecConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("grpc");
    }
}
