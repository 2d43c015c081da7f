package org.salgate.transport.netty;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.netty.NettyIo;
import org.salgate.transport.netty.NettyTransportProvider;

/**
 * The Netty transport on NIO, its fallback where the native transports do not load, against the
 * transport-level suite; {@link NettyTransportConformanceTest} runs the process's choice (native
 * on Linux x86_64).
 */
class NettyNioTransportConformanceTest extends AbstractFramedTransportConformanceTest {

    @Override
    protected TransportProvider provider() {
        return new NettyTransportProvider(NettyIo.nio());
    }
}
