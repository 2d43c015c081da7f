package org.salgate.client;

import java.io.IOException;

/** The agent answered the hello with a refusal (wrong protocol version, unknown codec, bad credentials). */
public class HelloRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    public HelloRefusedException(String address, String reason) {
        super("the agent at " + address + " refused the connection: " + reason);
        this.reason = reason;
    }

    /** The agent's reason, as it gave it. */
    public String reason() {
        return reason;
    }
}
