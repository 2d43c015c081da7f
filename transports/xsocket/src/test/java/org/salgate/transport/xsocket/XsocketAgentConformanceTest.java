package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.xsocket.XsocketTransportProvider;

/** The agent and client over the xSocket transport against the agent-level suite. */
class XsocketAgentConformanceTest extends AbstractAgentConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(XsocketTransportProvider.NAME);
    }
}
