package org.salgate.transport;

import java.io.IOException;
import java.util.concurrent.Future;
import org.salgate.wire.Message;

/** The client side of a transport: one connection to an agent. */
public interface TransportClient extends AutoCloseable {

    /**
     * Connects; returns once the connection is up (before the hello). Messages from the agent are
     * given to {@code handler} in the order they arrived, on one thread at a time.
     *
     * @throws IOException if the agent cannot be reached
     */
    void connect(ClientHandler handler) throws IOException;

    /**
     * Sends a message. Thread-safe, and callable from inside {@link ClientHandler#messageReceived}
     * (a listener that stops its stream does that). It does not wait for an answer, but it may
     * block while the transport cannot take more (RMI blocks for the remote call).
     *
     * @throws IOException if the connection is closed or broken
     */
    void send(Message message) throws IOException;

    /**
     * The calling thread is about to wait for {@code answer}, which the handler completes when the
     * agent's answer arrives. A transport whose connection this thread can read may spend the wait
     * reading it here, handing what it reads to the handler as always (in arrival order, one message
     * at a time), so that the answer reaches its caller without a hand-off from another thread.
     * Returns once the answer is complete, the deadline has passed, or there is nothing the
     * transport can do on this thread; the caller then waits on the future as before. Callable from
     * any thread that is not inside the handler; the default does nothing.
     *
     * @param deadlineNanos the {@link System#nanoTime()} after which the caller stops waiting
     */
    default void readWhileWaiting(Future<?> answer, long deadlineNanos) {
    }

    /** Whether the connection is open. */
    boolean isOpen();

    /** Closes the connection; the handler gets {@link ClientHandler#closed}. Idempotent. */
    @Override
    void close();
}
