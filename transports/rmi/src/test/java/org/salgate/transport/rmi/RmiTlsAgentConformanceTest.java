package org.salgate.transport.rmi;

import org.salgate.transport.tck.*;

/** The agent and client over the Rmi transport against the agent-level suite, over TLS. */
class RmiTlsAgentConformanceTest extends RmiAgentConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
