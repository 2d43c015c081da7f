package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.mina.MinaTransportProvider;

/** The agent and client over the MINA transport against the agent-level suite. */
class MinaAgentConformanceTest extends AbstractAgentConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(MinaTransportProvider.NAME);
    }
}
