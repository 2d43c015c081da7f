package org.salgate.transport.http;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.http.HttpTransportProvider;

/**
 * The HTTP transport against the transport-level suite. Its frames travel as WebSocket messages
 * after an HTTP handshake, not length-prefixed on the socket, so the suite's raw-byte cases (which
 * write salgate's length prefix straight onto a TCP connection) cannot reach a session. The HTTP
 * module tests the equivalents on its own wire instead: an oversize WebSocket message (announced
 * or sent), a malformed frame inside a message, a text message, malformed HTTP, a 2 GB
 * Content-Length, a header flood and slow headers, and a client refusing an oversize message.
 */
class HttpTransportConformanceTest extends AbstractTransportConformanceTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(HttpTransportProvider.NAME);
    }
}
