package org.salgate.transport.xsocket;

import org.salgate.transport.tck.*;

/** The xSocket transport's client against the caller-read suite, over TLS. */
class XsocketTlsCallerReadTest extends XsocketCallerReadTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
