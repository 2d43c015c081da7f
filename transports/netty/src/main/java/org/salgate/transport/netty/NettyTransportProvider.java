package org.salgate.transport.netty;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.RecvByteBufAllocator;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.FrameReader;
import org.salgate.transport.MemoryBudget;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The Netty transport: length-prefixed frames (see {@link org.salgate.wire.Framing}) over TCP on
 * Netty's event loops ({@link NettyIo}), each connection's end a {@link FrameHandler}. Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 */
public final class NettyTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "netty";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return SingleUseServer.classesPresent(getClass(), "io.netty.channel.nio.NioIoHandler");
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public String description() {
        return "Netty 4 over TCP, length-prefixed frames, non-blocking I/O on " + NettyIo.describeCurrent();
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new Server(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new ChannelClient(options, "salgate-netty-client", ChannelWriter.LENGTH_PREFIXED) {
            @Override
            protected void initPipeline(ChannelPipeline pipeline, ClientHandler handler, long timeoutMillis) {
                pipeline.addLast("frames", new FrameHandler(new FrameReader(codec, options.maxFrameBytes()),
                        () -> { }, handler::messageReceived, handler::closed));
            }

            @Override
            protected String connectHint() {
                return "check that an agent listens there with this transport";
            }
        };
    }

    /** The server: a {@link ChannelServer} whose connections are {@link NettySession}s within one memory budget. */
    static final class Server extends SingleUseServer {

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
        /** What the connections draw on together; tests read it. */
        final MemoryBudget budget;

        Server(ServerOptions options) {
            this.options = options;
            this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
        }

        @Override
        protected Bound bind(ServerHandler handler) throws IOException {
            ChannelServer server = ChannelServer.bind(options, NAME, ch -> {
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
    }
}
