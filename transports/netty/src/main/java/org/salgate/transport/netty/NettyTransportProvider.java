package org.salgate.transport.netty;

import io.netty.channel.ChannelPipeline;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.FrameReader;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The Netty transport: length-prefixed frames (see {@link org.salgate.wire.Framing}) over TCP on
 * Netty's event loops ({@link NettyIo}). Registered in
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
        return new NettyTransportServer(options);
    }

    /** A client with length-prefixed frames straight on the channel. */
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
}
