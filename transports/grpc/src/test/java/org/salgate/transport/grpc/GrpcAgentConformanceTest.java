package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** The agent and client over the gRPC transport against the agent-level suite. */
class GrpcAgentConformanceTest extends AbstractAgentConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("grpc");
    }
}
