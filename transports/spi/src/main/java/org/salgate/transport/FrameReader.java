package org.salgate.transport;

import org.salgate.wire.CodecException;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Framing;
import org.salgate.wire.Message;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.function.IntSupplier;

/**
 * Cuts one connection's received bytes into frames as {@link Framing} defines them and decodes each
 * with the connection's {@link ConnectionCodec}. Every byte-stream transport feeds it what its
 * library read, in order, and takes whole messages out with {@link #next()}.
 *
 * <p>The buffer grows with the bytes that arrived, never with the length a frame announces: a
 * peer that announces 16 MiB and sends 10 bytes costs 10 bytes (plus the minimum buffer). A length
 * out of bounds fails as soon as its four bytes are here, before any of the body.
 *
 * <p>A reader that holds nothing keeps no array: an idle connection costs none. A read that
 * arrives then is taken into an array that the reading thread lends, and that goes back to the
 * thread once every frame in it is cut; only the bytes of a frame not yet whole are copied into an
 * array of the reader's own. So a connection whose reads bring whole frames allocates no buffer
 * per read, however many connections one thread serves. This relies on {@link Codec#decode}
 * keeping nothing of the array it decodes from.
 *
 * <p>A server's reader draws on its connection's {@link MemoryBudget.Account}: what a reader keeps
 * between reads (the array of a frame not yet whole) is drawn from it when {@link #next()} finds no further whole
 * frame, and given back once the frame is cut or {@link #release()} is called when the connection
 * closes. Whole frames cost the budget nothing, so a client that sends whole requests is served even
 * while the budget is spent by peers that hold partial frames.
 *
 * <p>A server's reader may also hold its peer to a lower limit for a while (until its hello is
 * accepted, see {@link org.salgate.transport.Session#limitFramesUntilHello}): the limit is read
 * afresh for each frame, so a frame that follows the hello in the same read is held to the limit
 * the hello left.
 *
 * <p>Not thread-safe: a connection's reads are handled one at a time, as every transport does
 * ({@link #release()} may come from another thread).
 */
public final class FrameReader {

    /** The smallest array allocated (bytes). */
    static final int MIN_CAPACITY = 8 * 1024;
    /** The largest array a thread keeps to lend; a larger one, grown for a large read, is let go. */
    static final int MAX_LENT_CAPACITY = 64 * 1024;
    private static final byte[] NONE = new byte[0];
    /** The array each thread lends to the reader it is reading for; null while lent. */
    private static final ThreadLocal<byte[]> LENDABLE = new ThreadLocal<>();

    private final ConnectionCodec codec;
    private final int maxFrameBytes;
    /** The limit in force now, at most {@link #maxFrameBytes}; null for that one always. */
    private final IntSupplier currentMaxFrameBytes;
    private byte[] bytes = NONE;
    /** Whether {@link #bytes} is lent by the thread now reading, and goes back to it. */
    private boolean lent;
    private int start;
    private int end;
    private final MemoryBudget.Account budget;
    /** What this reader holds of {@link #budget}; guarded by {@code this}. */
    private long charged;
    private boolean released;

    public FrameReader(ConnectionCodec codec, int maxFrameBytes) {
        this(codec, maxFrameBytes, null);
    }

    /** A reader drawing what it keeps between reads from its connection's {@code budget}; null for none. */
    public FrameReader(ConnectionCodec codec, int maxFrameBytes, MemoryBudget.Account budget) {
        this(codec, maxFrameBytes, null, budget);
    }

    /**
     * A server connection's reader: frames of at most {@code currentMaxFrameBytes} (read for each
     * frame, and never above {@code maxFrameBytes}; null for {@code maxFrameBytes} always), drawing
     * what it keeps between reads from the connection's {@code budget} (null for none).
     */
    public FrameReader(ConnectionCodec codec, int maxFrameBytes, IntSupplier currentMaxFrameBytes,
                       MemoryBudget.Account budget) {
        if (maxFrameBytes <= 0) {
            throw new IllegalArgumentException("the largest frame must be positive, got " + maxFrameBytes);
        }
        this.codec = codec;
        this.maxFrameBytes = maxFrameBytes;
        this.currentMaxFrameBytes = currentMaxFrameBytes;
        this.budget = budget;
    }

    /** Appends received bytes; {@code src} is emptied. */
    public void append(ByteBuffer src) {
        int n = src.remaining();
        ensureRoom(n);
        src.get(bytes, end, n);
        end += n;
    }

    /** Appends received bytes. */
    public void append(byte[] src, int offset, int length) {
        ensureRoom(length);
        System.arraycopy(src, offset, bytes, end, length);
        end += length;
    }

    /**
     * Reads what {@code in} has (blocking until at least one byte or the end) into the buffer.
     *
     * @return the bytes read, or -1 at the end of the stream
     */
    public int readFrom(InputStream in) throws IOException {
        int wanted = Math.max(MIN_CAPACITY / 2, Math.min(bytesStillMissing(), MIN_CAPACITY * 8));
        ensureRoom(wanted);
        int n = in.read(bytes, end, bytes.length - end);
        if (n > 0) {
            end += n;
        }
        return n;
    }

    /**
     * Reads what {@code channel} has into the buffer; a non-blocking channel may have nothing.
     *
     * @return the bytes read, 0 if none, or -1 at the end of the stream
     */
    public int readFrom(ReadableByteChannel channel) throws IOException {
        int wanted = Math.max(MIN_CAPACITY / 2, Math.min(bytesStillMissing(), MIN_CAPACITY * 8));
        ensureRoom(wanted);
        int n = channel.read(ByteBuffer.wrap(bytes, end, bytes.length - end));
        if (n > 0) {
            end += n;
        }
        return n;
    }

    /**
     * The next whole frame's message, or null until more bytes arrive.
     *
     * @throws CodecException if a length is out of bounds, a frame does not decode, or the bytes
     *     kept for a frame not yet whole would pass the budget; the connection is then unusable
     *     and should be closed
     */
    public Message next() throws CodecException {
        if (start == end) {
            giveBack();
            bytes = NONE;
            start = 0;
            end = 0;
            settle();
            return null;
        }
        if (end - start < Framing.LENGTH_FIELD_BYTES) {
            keepUnfinished();
            return null;
        }
        int length = checkLength(lengthAt(start));
        if (end - start - Framing.LENGTH_FIELD_BYTES < length) {
            keepUnfinished();
            return null;
        }
        int body = start + Framing.LENGTH_FIELD_BYTES;
        start = body + length;
        return codec.decode(bytes, body, length);
    }

    /**
     * Lets go of the buffer and gives back to the budget what this reader held; the connection is
     * closed. Idempotent; may be called from any thread.
     */
    public void release() {
        synchronized (this) {
            // a lent array stays with this reader, to be collected with it: the thread that lent it
            // may be another one, and may be reading into its next array by now
            released = true;
            if (budget != null) {
                budget.give(charged);
            }
            charged = 0;
        }
    }

    /** The largest frame taken now. */
    private int maxFrameBytesNow() {
        if (currentMaxFrameBytes == null) {
            return maxFrameBytes;
        }
        int now = currentMaxFrameBytes.getAsInt();
        return now > 0 && now < maxFrameBytes ? now : maxFrameBytes;
    }

    private int checkLength(int length) throws CodecException {
        int max = maxFrameBytesNow();
        if (length > max && max < maxFrameBytes && length <= maxFrameBytes) {
            throw new Framing.FrameTooLargeException(length, max, "; a connection may send no larger frame until"
                    + " its hello is accepted, so send the hello first");
        }
        return Framing.checkLength(length, max);
    }

    /** The frame at the head is not whole yet: its bytes move to an array of this reader's own. */
    private void keepUnfinished() throws CodecException {
        if (lent) {
            int kept = end - start;
            byte[] own = new byte[Math.max(MIN_CAPACITY, 2 * kept)];
            System.arraycopy(bytes, start, own, 0, kept);
            giveBack();
            bytes = own;
            start = 0;
            end = kept;
        }
        settle();
    }

    /** Gives a lent array back to the reading thread, which lends it for its next read. */
    private void giveBack() {
        if (lent) {
            lent = false;
            if (bytes.length <= MAX_LENT_CAPACITY) {
                LENDABLE.set(bytes);
            }
        }
    }

    /** Draws from the budget, or gives back to it, what is kept until the next read. */
    private void settle() throws CodecException {
        if (budget == null) {
            return;
        }
        long kept = start == end ? 0 : bytes.length;
        synchronized (this) {
            if (released) {
                return;
            }
            if (kept > charged && !budget.take(kept - charged)) {
                bytes = NONE;
                start = 0;
                end = 0;
                if (budget.isClosed()) {
                    throw new CodecException("the connection was closed to keep the agent within its memory budget"
                            + " of " + budget.budget().maxBytes() + " bytes (" + MemoryBudget.OPTION + ")");
                }
                throw new CodecException("the agent's connections together hold close to its memory budget of "
                        + budget.budget().maxBytes() + " bytes (" + MemoryBudget.OPTION + "), and this connection,"
                        + " holding the most, would pass it with its unfinished frame, so the connection is closed");
            }
            if (kept < charged) {
                budget.give(charged - kept);
            }
            charged = kept;
        }
    }

    /**
     * Whether {@link #next()} has something to do without more bytes: a whole frame is held, or a
     * length that makes it fail.
     */
    public boolean holdsWholeFrame() {
        if (end - start < Framing.LENGTH_FIELD_BYTES) {
            return false;
        }
        int length = lengthAt(start);
        return length <= 0 || length > maxFrameBytesNow() || end - start - Framing.LENGTH_FIELD_BYTES >= length;
    }

    /** Bytes held that are not yet cut into frames. */
    public int buffered() {
        return end - start;
    }

    private int lengthAt(int at) {
        return ((bytes[at] & 0xff) << 24) | ((bytes[at + 1] & 0xff) << 16) | ((bytes[at + 2] & 0xff) << 8)
                | (bytes[at + 3] & 0xff);
    }

    /** How many bytes the frame at the head still lacks, when its length is known and valid; else 0. */
    private int bytesStillMissing() {
        if (end - start < Framing.LENGTH_FIELD_BYTES) {
            return 0;
        }
        int length = lengthAt(start);
        if (length <= 0 || length > maxFrameBytesNow()) {
            return 0;
        }
        return Math.max(0, Framing.LENGTH_FIELD_BYTES + length - (end - start));
    }

    private void ensureRoom(int n) {
        if (bytes.length - end >= n) {
            return;
        }
        if (bytes == NONE) {
            byte[] lendable = LENDABLE.get();
            if (lendable == null || lendable.length < n) {
                lendable = new byte[Math.max(MIN_CAPACITY, n)];
            }
            LENDABLE.remove(); // lent: a reader reading inside this one's delivery borrows none
            bytes = lendable;
            lent = true;
            start = 0;
            end = 0;
            return;
        }
        int kept = end - start;
        // Doubling what is held: a large frame arriving in many chunks is not copied once per chunk,
        // and the array never outgrows twice what arrived.
        long size = Math.max(MIN_CAPACITY, Math.max((long) kept + n, 2L * kept));
        byte[] next = new byte[(int) Math.min(Integer.MAX_VALUE - 8, size)];
        System.arraycopy(bytes, start, next, 0, kept);
        giveBack();
        bytes = next;
        start = 0;
        end = kept;
    }
}
