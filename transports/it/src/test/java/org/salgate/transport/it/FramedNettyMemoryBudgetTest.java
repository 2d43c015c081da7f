package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.netty.NettyTransportProvider;

/** The netty agent's one memory budget, against peers that never read and peers that hold unfinished frames. */
class FramedNettyMemoryBudgetTest extends AbstractFramedMemoryBudgetTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName(NettyTransportProvider.NAME);
    }
}
