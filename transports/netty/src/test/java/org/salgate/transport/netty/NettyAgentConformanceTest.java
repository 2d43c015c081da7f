package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** The agent and client over the Netty transport against the agent-level suite. */
class NettyAgentConformanceTest extends AbstractAgentConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("netty");
    }
}
