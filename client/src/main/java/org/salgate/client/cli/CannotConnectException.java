package org.salgate.client.cli;

/** The CLI could not open a connection to the agent; its message is the sentence shown to the user. */
final class CannotConnectException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CannotConnectException(String message, Throwable cause) {
        super(message, cause);
    }
}
