package org.salgate.transport.http;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.http.HttpTransportProvider;

/**
 * The HTTP transport's client (a WebSocket on Netty), whose waiting caller runs the connection's
 * event loop itself as the Netty transport's does.
 */
class HttpCallerReadTest extends AbstractCallerReadTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(HttpTransportProvider.NAME);
    }
}
