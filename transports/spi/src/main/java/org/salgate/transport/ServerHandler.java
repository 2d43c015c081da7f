package org.salgate.transport;

import org.salgate.wire.Message;

/**
 * Receives what happens on a server's sessions. A transport calls these methods for one session
 * in order (opened, messages, closed), never concurrently for the same session, possibly
 * concurrently for different sessions. Implementations must not block: they run on the
 * transport's I/O threads.
 */
public interface ServerHandler {

    /** A client connected. */
    void sessionOpened(Session session);

    /** A message arrived, decoded. The first is the client's {@link org.salgate.wire.Hello}. */
    void messageReceived(Session session, Message message);

    /**
     * The session closed, by either side or after an error.
     *
     * @param cause why, when it was an error (such as a malformed or oversized frame), else null
     */
    void sessionClosed(Session session, Throwable cause);
}
