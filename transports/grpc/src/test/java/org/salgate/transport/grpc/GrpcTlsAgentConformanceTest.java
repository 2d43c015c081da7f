package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

/** The agent and client over the gRPC transport against the agent-level suite, over TLS. */
class GrpcTlsAgentConformanceTest extends GrpcAgentConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
