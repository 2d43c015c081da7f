package org.salgate.transport;

import org.salgate.wire.Message;

/** Receives what the agent sends on a client connection. */
public interface ClientHandler {

    /**
     * A message arrived. Called in arrival order, one at a time. A handler that blocks here stops
     * the client from reading, which is how a slow client looks to the agent.
     */
    void messageReceived(Message message);

    /**
     * The connection closed.
     *
     * @param cause why, when it was an error, else null
     */
    void closed(Throwable cause);
}
