package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

/** The gRPC transport against the transport-level suite, over TLS. */
class GrpcTlsTransportConformanceTest extends GrpcTransportConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
