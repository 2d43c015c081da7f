package org.salgate.transport.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * Reads a connection only as fast as it is served, as Netty's guidance for HTTP servers has it:
 * nothing is read while it is not writable (its peer does not read answers, events or pongs), while
 * the request handler holds its maximum of pipelined requests, or once it is closing. What the
 * decoder before it produced meanwhile waits here, counted, and reads asked for by the handlers
 * after it are held back too. On the event loop only.
 */
final class ReadPacer extends ChannelDuplexHandler {

    /** What a message waiting here costs besides its bytes: Netty counts an outbound one the same. */
    static final int MESSAGE_OVERHEAD_BYTES = 96;

    private final ConnectionMemory memory;
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private PacedRequestDecoder decoder;
    private boolean holding;
    private boolean stopped;
    private boolean readingPaused;
    private boolean readWanted;
    private boolean resumeScheduled;
    private boolean readCompleteHeld;

    ReadPacer(ConnectionMemory memory) {
        this.memory = memory;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** The HTTP decoder before this pacer; null once the connection is a WebSocket. */
    void decoder(PacedRequestDecoder decoder) {
        this.decoder = decoder;
    }

    /** Whether nothing more should be decoded or passed on now. */
    boolean paused() {
        return stopped || holding || !ctx.channel().isWritable();
    }

    /** The REST handler holds its maximum of requests ({@code true}), or took one of them on ({@code false}). */
    void hold(boolean full) {
        if (full == holding) {
            return;
        }
        holding = full;
        if (full) {
            pauseReading();
        } else {
            resumeSoon();
        }
    }

    /** The connection is closing: it is never read again, and what waits is dropped. */
    void stop() {
        stopped = true;
        ctx.channel().config().setAutoRead(false);
        releaseWaiting();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (stopped) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (waiting.isEmpty() && !paused()) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!memory.take(MESSAGE_OVERHEAD_BYTES)) {
            ReferenceCountUtil.release(msg);
            ctx.close(); // the budget logged why
            stop();
            return;
        }
        waiting.addLast(msg);
        pauseReading();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (waiting.isEmpty()) {
            ctx.fireChannelReadComplete();
        } else {
            readCompleteHeld = true; // fired once what waits has gone on
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (stopped) {
            return;
        }
        if (paused() || !waiting.isEmpty()) {
            readWanted = true; // read once served again
            return;
        }
        ctx.read();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            resumeSoon();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseWaiting();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseWaiting();
    }

    /** Stops reading the socket until this pacer resumes; the decoder calls it when it stops decoding. */
    void pauseReading() {
        if (!readingPaused) {
            readingPaused = true;
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** Resumes in a task of its own: the decoder must not be re-entered from a handler it is calling. */
    private void resumeSoon() {
        if (!resumeScheduled && !stopped && (readingPaused || readWanted || !waiting.isEmpty())) {
            resumeScheduled = true;
            ctx.executor().execute(this::resume);
        }
    }

    private void resume() {
        resumeScheduled = false;
        if (stopped || !ctx.channel().isActive()) {
            return;
        }
        while (!waiting.isEmpty() && !paused()) {
            memory.give(MESSAGE_OVERHEAD_BYTES);
            ctx.fireChannelRead(waiting.pollFirst());
        }
        if (!waiting.isEmpty() || paused()) {
            return;
        }
        if (readCompleteHeld) {
            readCompleteHeld = false;
            ctx.fireChannelReadComplete();
        }
        if (decoder != null) {
            decoder.decodeWhileServed();
            if (!waiting.isEmpty() || paused()) {
                return;
            }
        }
        if (readingPaused) {
            readingPaused = false;
            readWanted = false;
            ctx.channel().config().setAutoRead(true); // which reads
        } else if (readWanted) {
            readWanted = false;
            ctx.read();
        }
    }

    private void releaseWaiting() {
        Object msg;
        while ((msg = waiting.pollFirst()) != null) {
            memory.give(MESSAGE_OVERHEAD_BYTES);
            ReferenceCountUtil.release(msg);
        }
    }
}
