package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

/** The agent and client over the Netty transport against the agent-level suite, over TLS. */
class NettyTlsAgentConformanceTest extends NettyAgentConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
