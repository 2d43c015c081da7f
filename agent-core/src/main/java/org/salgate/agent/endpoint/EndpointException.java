package org.salgate.agent.endpoint;

/** An endpoint specification cannot be used; the message says what is wrong and what to write instead. */
public class EndpointException extends Exception {
    private static final long serialVersionUID = 1L;

    public EndpointException(String message) {
        super(message);
    }
}
