package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

/** The gRPC transport's client against the caller-read suite, over TLS. */
class GrpcTlsCallerReadTest extends GrpcCallerReadTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
