package org.salgate.transport.http;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.http.HttpTransportProvider;

/** The agent and client over the HTTP transport (frames on a WebSocket) against the agent-level suite. */
class HttpAgentConformanceTest extends AbstractAgentConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(HttpTransportProvider.NAME);
    }
}
