package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.netty.NettyIo;
import org.salgate.transport.netty.NettyTransportProvider;

/** The Netty transport's client on NIO, whose waiting caller runs the connection's event loop itself too. */
class NettyNioCallerReadTest extends AbstractCallerReadTest {

    @Override
    protected TransportProvider provider() {
        return new NettyTransportProvider(NettyIo.nio());
    }
}
