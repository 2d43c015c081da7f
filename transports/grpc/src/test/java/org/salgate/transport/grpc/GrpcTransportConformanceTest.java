package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/**
 * The gRPC transport against the transport-level suite. Its frames travel as gRPC messages on
 * HTTP/2 streams, not as length-prefixed bytes on a socket, so the raw-bytes cases (an oversize or
 * malformed length prefix written by hand) do not apply: HTTP/2 and gRPC's own framing come first.
 * The transport module tests the gRPC equivalents instead: a message above the limit is refused
 * with RESOURCE_EXHAUSTED in either direction, and a malformed frame inside a valid gRPC message
 * closes only its session (GrpcTransportTest).
 */
class GrpcTransportConformanceTest extends AbstractTransportConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("grpc");
    }
}
