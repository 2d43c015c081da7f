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

    /**
     * Whether a hello carrying {@code credentials} would be let in, asked by a transport that reads
     * credentials before a session's hello (an HTTP request's bearer token) so that it can refuse an
     * unauthenticated peer before reading, or holding, what it sends. Must be quick and must not
     * block. The default lets everyone in: a handler that checks credentials says so here.
     */
    default boolean admits(String credentials) {
        return true;
    }
}
