package org.salgate.transport.netty;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;

/** A Netty server: a {@link ChannelServer} whose connections carry framed salgate sessions. */
final class NettyTransportServer extends SingleUseServer {

    /**
     * One read per connection per turn of its event loop, not Netty's 16: a peer that sends
     * requests as fast as they are taken then costs the loop one read's work before the loop's
     * other connections are served, so a normal client sharing the loop with such peers is still
     * greeted promptly.
     */
    private static final RecvByteBufAllocator ONE_READ_PER_TURN = new AdaptiveRecvByteBufAllocator()
            .maxMessagesPerRead(1);

    private final ServerOptions options;
    private final AtomicLong sessionIds = new AtomicLong();
    private final MemoryBudget budget;

    NettyTransportServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
    }

    @Override
    protected Bound bind(ServerHandler handler) throws IOException {
        ChannelServer server = ChannelServer.bind(options, NettyTransportProvider.NAME, ch -> {
            ch.config().setRecvByteBufAllocator(ONE_READ_PER_TURN);
            TlsHandlers.addServer(ch, options.tls());
            NettySession session = new NettySession(sessionIds.incrementAndGet(), ch, options, budget,
                    ChannelWriter.LENGTH_PREFIXED);
            ch.pipeline().addLast("frames", new FrameHandler(session.frameReader(),
                    () -> handler.sessionOpened(session),
                    message -> handler.messageReceived(session, message),
                    cause -> handler.sessionClosed(session, cause)));
        });
        return new Bound(server.localAddress(), server::close);
    }

    /** What the connections draw on together; tests read it. */
    MemoryBudget budget() {
        return budget;
    }
}
