package org.salgate.transport;

import java.io.IOException;
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

    /** Whether the connection is open. */
    boolean isOpen();

    /** Closes the connection; the handler gets {@link ClientHandler#closed}. Idempotent. */
    @Override
    void close();
}
