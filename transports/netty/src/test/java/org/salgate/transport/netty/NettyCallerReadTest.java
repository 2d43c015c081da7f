package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.netty.NettyTransportProvider;

/**
 * The Netty transport's client on the process's I/O mechanism (epoll on Linux x86_64), whose
 * waiting caller runs the connection's event loop itself.
 */
class NettyCallerReadTest extends AbstractCallerReadTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(NettyTransportProvider.NAME);
    }
}
