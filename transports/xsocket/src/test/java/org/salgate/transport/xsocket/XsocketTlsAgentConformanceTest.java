package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

/** The agent and client over the Xsocket transport against the agent-level suite, over TLS. */
class XsocketTlsAgentConformanceTest extends XsocketAgentConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
