package org.salgate.transport.netty;

import io.netty.channel.ChannelPipeline;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.FrameReader;

/** The netty transport's client: length-prefixed frames straight on the channel. */
final class NettyTransportClient extends ChannelClient {

    /** On the I/O mechanism {@code io}, or the process's if null. */
    NettyTransportClient(ClientOptions options, NettyIo io) {
        super(options, "salgate-netty-client", ChannelWriter.LENGTH_PREFIXED, io);
    }

    @Override
    protected void initPipeline(ChannelPipeline pipeline, ClientHandler handler, long timeoutMillis) {
        pipeline.addLast("client", new ClientChannelHandler(handler, new FrameReader(codec, options.maxFrameBytes())));
    }

    @Override
    protected String connectHint() {
        return "check that an agent listens there with this transport";
    }
}
