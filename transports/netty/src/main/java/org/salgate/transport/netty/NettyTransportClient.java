package org.salgate.transport.netty;

import io.netty.channel.ChannelPipeline;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.FrameReader;

/** The netty transport's client: length-prefixed frames straight on the channel. */
final class NettyTransportClient extends ChannelClient {

    NettyTransportClient(ClientOptions options) {
        super(options, "salgate-netty-client", ChannelWriter.LENGTH_PREFIXED);
    }

    @Override
    protected void initPipeline(ChannelPipeline pipeline, ClientHandler handler, long timeoutMillis) {
        pipeline.addLast("frames", new FrameHandler(new FrameReader(codec, options.maxFrameBytes()), () -> { },
                handler::messageReceived, handler::closed));
    }

    @Override
    protected String connectHint() {
        return "check that an agent listens there with this transport";
    }
}
