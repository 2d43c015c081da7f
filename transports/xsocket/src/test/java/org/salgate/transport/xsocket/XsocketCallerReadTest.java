package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.xsocket.XsocketTransportProvider;

/**
 * The xSocket transport's client, whose waiting caller delivers the messages xSocket's dispatcher
 * cut, its own answer among them, in place of the client's delivery thread.
 */
class XsocketCallerReadTest extends AbstractCallerReadTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(XsocketTransportProvider.NAME);
    }
}
