package org.salgate.client;

import java.io.IOException;

/** The connection to the agent closed, so a request or stream cannot complete. */
public class ConnectionClosedException extends IOException {
    private static final long serialVersionUID = 1L;

    public ConnectionClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
