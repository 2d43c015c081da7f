package org.salgate.transport.http;

import org.salgate.transport.tck.*;

/** The HTTP transport's client against the caller-read suite, over TLS. */
class HttpTlsCallerReadTest extends HttpCallerReadTest {

    @Override
    protected boolean tls() {
        return true;
    }
}
