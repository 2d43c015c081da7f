package org.salgate.transport.netty;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.socket.SocketChannel;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.FrameReader;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The Netty transport: length-prefixed frames ({@link org.salgate.wire.Framing}) over TCP, each
 * connection's end a {@link FrameHandler}. Registered in
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
        return "Netty 4 over TCP, length-prefixed frames, non-blocking I/O on Java NIO";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new Server(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new ChannelClient(options, NAME, ChannelWriter.LENGTH_PREFIXED) {
            @Override
            protected void initPipeline(ChannelPipeline pipeline, ClientHandler handler, long timeoutMillis) {
                pipeline.addLast("frames", new FrameHandler(new FrameReader(codec, options.maxFrameBytes()),
                        () -> { }, handler::messageReceived, handler::closed));
            }
        };
    }

    /** The server: each connection's end a {@link FrameHandler}. */
    static final class Server extends ChannelServer {

        /** One read per connection per turn of its event loop, not 16: a flooding peer cannot starve its neighbours. */
        private static final RecvByteBufAllocator ONE_READ_PER_TURN = new AdaptiveRecvByteBufAllocator()
                .maxMessagesPerRead(1);

        Server(ServerOptions options) {
            super(options, NAME);
        }

        @Override
        protected void initChannel(SocketChannel ch, ServerHandler handler) {
            ch.config().setRecvByteBufAllocator(ONE_READ_PER_TURN);
            ChannelSession session = newSession(ch, ChannelWriter.LENGTH_PREFIXED);
            ch.pipeline().addLast("frames", new FrameHandler(session.frameReader(),
                    () -> handler.sessionOpened(session),
                    message -> handler.messageReceived(session, message),
                    cause -> handler.sessionClosed(session, cause)));
        }
    }
}
