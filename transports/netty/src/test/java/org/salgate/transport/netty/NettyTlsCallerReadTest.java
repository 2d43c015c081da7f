package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

/** The Netty transport's client against the caller-read suite, over TLS. */
class NettyTlsCallerReadTest extends NettyCallerReadTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
