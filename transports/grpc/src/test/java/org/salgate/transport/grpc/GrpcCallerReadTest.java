package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.grpc.GrpcTransportProvider;

/**
 * The gRPC transport's client (grpc-java on the netty transport's client event loop), whose waiting
 * caller runs the connection's event loop itself as the Netty transport's does.
 */
class GrpcCallerReadTest extends AbstractCallerReadTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(GrpcTransportProvider.NAME);
    }
}
