package org.salgate.transport;

import java.io.IOException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Message;
import org.salgate.wire.SharedMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of a server session that is the same on every transport: messages are encoded on the
 * sender's thread into the session's {@link OutboundQueue}, which bounds them, batches them and
 * says whether the session is writable. A transport's session adds only how its library writes a
 * batch ({@link #startWriting}), and how it closes. Its {@link #frameReader()} holds the peer to
 * the frame limit in force ({@linkplain #limitFramesUntilHello a small one until the hello is
 * accepted}) and draws on the session's account in the server's memory budget.
 */
public abstract class QueuedSession implements Session {

    private static final Logger LOG = LoggerFactory.getLogger(QueuedSession.class);

    private final long id;
    private final ConnectionCodec codec;
    private final OutboundQueue<byte[]> queue;
    private final MemoryBudget.Account budget;
    private final int maxFrameBytes;
    /** The largest frame taken from the peer now: {@link #maxFrameBytes} unless limited until the hello. */
    private volatile int inboundFrameLimit;
    private volatile boolean helloAccepted;
    private volatile Runnable writabilityListener;

    /** A session outside any memory budget (tests, and transports that bound memory otherwise). */
    protected QueuedSession(long id, ServerOptions options) {
        this(id, options, null);
    }

    /**
     * A session whose outbound queue, and whatever else its transport charges to {@link #budget()},
     * draws on the server's {@code budget} (null for none). When the budget evicts it, it is closed
     * at once with the reason.
     */
    protected QueuedSession(long id, ServerOptions options, MemoryBudget budget) {
        this.id = id;
        this.codec = new ConnectionCodec(options.codec());
        this.maxFrameBytes = options.maxFrameBytes();
        this.inboundFrameLimit = maxFrameBytes;
        this.budget = budget == null ? null : budget.open(this, () -> abort(new IOException(
                "the agent's connections together reached its memory budget of " + budget.maxBytes() + " bytes ("
                        + MemoryBudget.OPTION + ") and this one held the most, so it is closed")));
        this.queue = OutboundQueue.forSession(options, this.budget, this::startWriting);
        this.queue.setWritabilityListener(this::fireWritable);
    }

    /**
     * This connection's account in the server's memory budget, for what its transport holds besides
     * the queue (a frame reader's unfinished frame); null if the session has none. The account is
     * closed when the queue is discarded, as the connection closes.
     */
    public final MemoryBudget.Account budget() {
        return budget;
    }

    /**
     * A reader of what this session's peer sends, for a byte-stream transport: frames up to the
     * limit in force (see {@link #limitFramesUntilHello}), drawing on {@link #budget()}.
     */
    public final FrameReader frameReader() {
        return new FrameReader(codec, maxFrameBytes, this::maxInboundFrameBytes, budget);
    }

    /** The largest frame the peer may send now. */
    public final int maxInboundFrameBytes() {
        return inboundFrameLimit;
    }

    @Override
    public final void limitFramesUntilHello(int maxFrameBytes) {
        Session.super.limitFramesUntilHello(maxFrameBytes);
        if (!helloAccepted) {
            inboundFrameLimit = Math.min(maxFrameBytes, this.maxFrameBytes);
        }
        if (helloAccepted) { // accepted meanwhile, on another thread: the hello's word is the last
            inboundFrameLimit = this.maxFrameBytes;
        }
    }

    @Override
    public final void helloAccepted() {
        helloAccepted = true;
        inboundFrameLimit = maxFrameBytes;
    }

    @Override
    public final long id() {
        return id;
    }

    /** This session's codec state, for decoding what it receives. */
    public final ConnectionCodec codec() {
        return codec;
    }

    /** This session's outbound queue. */
    protected final OutboundQueue<byte[]> queue() {
        return queue;
    }

    /** Encodes and queues a message; a message that would pass the queue's limit closes the session. */
    @Override
    public final void send(Message message) {
        if (isOpen()) {
            queue(message, codec.encode(message));
        }
    }

    /** Queues the bytes its codec already encoded for every session it goes to. */
    @Override
    public final void send(SharedMessage message) {
        if (isOpen()) {
            queue(message.message(), codec.encode(message));
        }
    }

    /**
     * Queues a message {@link #send} encoded, on the sending thread. A transport overrides this only
     * when a message's kind changes how it goes out.
     */
    protected void queue(Message message, byte[] encoded) {
        if (queue.offer(encoded) == OutboundQueue.Offer.OVER_LIMIT) {
            abort(overLimit());
        }
    }

    /** The reason a session is closed when its queue's limit, or the server's memory budget, is passed. */
    protected final IOException overLimit() {
        if (queue.refusedByBudget()) {
            return new IOException("the client stopped reading: the bytes queued for it ("
                    + queue.queuedBytes() + ") would take the agent's connections past its memory budget of "
                    + budget.budget().maxBytes() + " bytes (" + MemoryBudget.OPTION + "), so its session is closed");
        }
        return new IOException("the client stopped reading: more than " + queue.maxQueuedBytes()
                + " bytes are queued for it, so its session is closed");
    }

    /**
     * Frames wait in the queue and no drain is under way: take batches with {@link OutboundQueue#next}
     * and hand them to the library, now or on the library's thread, until a batch is empty. Runs
     * on the sending thread; must not block.
     */
    protected abstract void startWriting();

    /** Closes now, dropping what waits; {@code cause} is reported to the server handler. */
    protected abstract void abort(Throwable cause);

    @Override
    public final void closeNow(String reason) {
        abort(new IOException(reason));
    }

    @Override
    public final boolean isWritable() {
        return queue.isWritable();
    }

    @Override
    public final void setWritabilityListener(Runnable listener) {
        this.writabilityListener = listener;
    }

    private void fireWritable() {
        Runnable listener = writabilityListener;
        if (listener == null) {
            return;
        }
        try {
            listener.run();
        } catch (RuntimeException e) {
            LOG.warn("the writability listener of session {} failed", id, e);
        }
    }

    @Override
    public final long bytesReceived() {
        return codec.bytesDecoded();
    }

    @Override
    public final long bytesSent() {
        return codec.bytesEncoded();
    }

    @Override
    public final long queuedBytes() {
        return queue.queuedBytes();
    }

    @Override
    public String toString() {
        return "session " + id + " (" + remoteAddress() + ")";
    }
}
