package org.salgate.transport.socket;

import org.salgate.transport.tck.*;

/** The agent and client over the Socket transport against the agent-level suite, over TLS. */
class SocketTlsAgentConformanceTest extends SocketAgentConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
