package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

/** The agent and client over the Mina transport against the agent-level suite, over TLS. */
class MinaTlsAgentConformanceTest extends MinaAgentConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
