package org.salgate.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequestDecoder;
import java.util.ArrayDeque;
import java.util.List;

/**
 * Netty's HTTP request decoder, decoding a message at a time while its {@link ReadPacer} lets
 * messages on: Netty's own would turn 64 KB of pipelined one-line requests into thousands of
 * messages at once. What arrives meanwhile waits as bytes, counted against the connection's memory.
 */
final class PacedRequestDecoder extends HttpRequestDecoder {

    private final ReadPacer pacer;
    private final ConnectionMemory memory;
    private final ArrayDeque<ByteBuf> unread = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean produced;

    PacedRequestDecoder(HttpDecoderConfig config, ReadPacer pacer, ConnectionMemory memory) {
        super(config);
        this.pacer = pacer;
        this.memory = memory;
        setSingleDecode(true);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof ByteBuf bytes)) {
            super.channelRead(ctx, msg);
            return;
        }
        if (pacer.paused() || !unread.isEmpty()) {
            keep(bytes);
            return;
        }
        super.channelRead(ctx, bytes);
        decodeWhileServed();
    }

    private void keep(ByteBuf bytes) {
        if (!memory.take(bytes.readableBytes())) {
            bytes.release();
            ctx.close(); // the budget logged why
            pacer.stop();
            return;
        }
        unread.addLast(bytes);
        pacer.pauseReading();
        noteUnreadAnswers();
    }

    /** Logs (once a second) a client that sends requests without reading the answers. */
    private void noteUnreadAnswers() {
        if (!ctx.channel().isWritable()) {
            HttpTransportServer.PEER_LOG.log("unread-answers", "the HTTP client at {} sends requests without reading the answers: it is "
                    + "not read until it reads them (at most {} of its requests are held)",
                    ctx.channel().remoteAddress(), HttpLimits.MAX_PIPELINED_REQUESTS);
        }
    }

    /** Decodes what it holds, a message at a time, while the pacer lets messages on. */
    void decodeWhileServed() {
        try {
            while (!pacer.paused() && ctx.channel().isActive() && !ctx.isRemoved()) {
                produced = false;
                ByteBuf next = unread.pollFirst();
                if (next != null) {
                    memory.give(next.readableBytes());
                }
                super.channelRead(ctx, next != null ? next : Unpooled.EMPTY_BUFFER);
                if (!produced && unread.isEmpty()) {
                    return; // what is left is not a whole message yet
                }
            }
            if (pacer.paused()) {
                pacer.pauseReading();
                if (actualReadableBytes() > 0 || !unread.isEmpty()) {
                    noteUnreadAnswers();
                }
            }
        } catch (Exception e) {
            ctx.fireExceptionCaught(e);
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        int before = out.size();
        super.decode(ctx, buffer, out);
        produced |= out.size() > before;
    }

    /** Bytes not decoded go on to what replaces this decoder (the WebSocket's), after the decoder's own. */
    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        ByteBuf next;
        while ((next = unread.pollFirst()) != null) {
            memory.give(next.readableBytes());
            ctx.fireChannelRead(next);
        }
        pacer.decoder(null);
        super.handlerRemoved0(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ByteBuf next;
        while ((next = unread.pollFirst()) != null) {
            next.release();
        }
        super.channelInactive(ctx);
    }
}
