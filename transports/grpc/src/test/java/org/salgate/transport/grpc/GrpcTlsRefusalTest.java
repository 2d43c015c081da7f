package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** TLS mismatches over the gRPC transport. */
class GrpcTlsRefusalTest extends AbstractTlsRefusalTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("grpc");
    }
}
