package org.salgate.transport.rmi;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.rmi.RmiTransportProvider;

/** The agent and client over the RMI transport against the agent-level suite. */
class RmiAgentConformanceTest extends AbstractAgentConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(RmiTransportProvider.NAME);
    }
}
