package org.salgate.transport.http;

import org.salgate.transport.tck.*;

/** The agent and client over the HTTP transport against the agent-level suite, over TLS. */
class HttpTlsAgentConformanceTest extends HttpAgentConformanceTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
