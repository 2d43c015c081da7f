package org.salgate.transport.netty;

import io.netty.channel.ChannelHandlerContext;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.FrameReader;
import org.salgate.wire.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The last handler of a client channel: hands each message, then the close, to the {@link ClientHandler}. */
final class ClientChannelHandler extends FrameHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ClientChannelHandler.class);

    private final ClientHandler handler;

    ClientChannelHandler(ClientHandler handler, FrameReader reader) {
        super(reader);
        this.handler = handler;
    }

    @Override
    void deliver(Message message) {
        try {
            handler.messageReceived(message);
        } catch (RuntimeException e) {
            LOG.warn("the client handler failed on a message", e);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseReader();
        try {
            handler.closed(failure());
        } catch (RuntimeException e) {
            LOG.warn("the client handler failed on close", e);
        }
        super.channelInactive(ctx);
    }
}
