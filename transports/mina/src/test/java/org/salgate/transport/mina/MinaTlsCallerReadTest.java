package org.salgate.transport.mina;

import org.salgate.transport.tck.*;

/** The MINA transport's client against the caller-read suite, over TLS. */
class MinaTlsCallerReadTest extends MinaCallerReadTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
