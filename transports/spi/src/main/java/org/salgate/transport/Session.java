package org.salgate.transport;

import org.salgate.wire.Message;
import org.salgate.wire.SharedMessage;

/**
 * One client's connection, as the agent sees it. Every method is thread-safe.
 *
 * <p>Backpressure: {@link #send} never blocks and never drops, so a producer that could outrun the
 * client (a stream) checks {@link #isWritable()} first and, when it is false, waits for the
 * writability listener. A transport bounds what it buffers per session by its high-water mark:
 * {@code isWritable()} turns false above it and the listener fires once the buffer drains below
 * the low-water mark.
 */
public interface Session {

    /** A number unique among this server's sessions. */
    long id();

    /** The client's address, for logs. */
    String remoteAddress();

    /** Queues a message for the client. Never blocks; a send on a closed session is ignored. */
    void send(Message message);

    /**
     * Queues a message that goes to many sessions unchanged (a shared stream's reading). A session
     * that encodes what it sends uses the encoding {@code message} already holds for its codec, so
     * that each codec encodes it once for all of them; the default sends {@link SharedMessage#message()}.
     * Never blocks; ignored on a closed session.
     */
    default void send(SharedMessage message) {
        send(message.message());
    }

    /** Whether the session's outbound buffer is below its high-water mark. */
    boolean isWritable();

    /**
     * Sets the listener run (on a transport thread, must not block) each time the session becomes
     * writable again after {@link #isWritable()} returned false. Replaces any earlier listener.
     */
    void setWritabilityListener(Runnable listener);

    /** Whether the session is still open. */
    boolean isOpen();

    /** Closes the session after flushing what was already sent, if the client still reads. */
    void close();

    /**
     * Closes the session now, dropping what is queued for it: its client is not reading (a
     * slow-consumer policy gave up on it). {@code reason} reaches the server handler as the cause
     * of the close. The default closes as {@link #close()} does.
     */
    default void closeNow(String reason) {
        close();
    }

    /**
     * Bytes of the encoded messages received on this session so far, length prefixes and TLS not
     * counted. 0 on sessions that receive messages without encoding (in-process and per-call ones).
     */
    default long bytesReceived() {
        return 0;
    }

    /** Bytes of the encoded messages sent (or queued to send) on this session so far; 0 as for {@link #bytesReceived()}. */
    default long bytesSent() {
        return 0;
    }

    /** Bytes queued for the client and not yet written: what counts against the high-water mark. */
    default long queuedBytes() {
        return 0;
    }

    /**
     * Holds the client to frames of at most {@code maxFrameBytes} (never more than the server's own
     * limit) until {@link #helloAccepted()}: a peer that has not authenticated cannot make the server
     * hold a large frame. A larger frame closes the session as soon as its length arrives, before
     * anything is allocated for it. The agent calls this as the session opens; a call after the
     * hello was accepted is ignored. The default ignores it: transports that do not cut frames
     * themselves bound what a peer sends before its hello in their own way.
     *
     * @throws IllegalArgumentException if {@code maxFrameBytes} is not positive
     */
    default void limitFramesUntilHello(int maxFrameBytes) {
        if (maxFrameBytes <= 0) {
            throw new IllegalArgumentException("the frame limit before the hello must be positive, got "
                    + maxFrameBytes);
        }
    }

    /**
     * The agent accepted the client's hello (and its credentials): from now on it may send frames
     * up to the server's limit. Called on the thread that delivered the hello, before its reply is
     * sent. The default does nothing.
     */
    default void helloAccepted() {
    }
}
