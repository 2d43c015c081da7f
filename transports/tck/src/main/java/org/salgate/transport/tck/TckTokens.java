package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import org.salgate.agent.session.Tokens;
import org.salgate.client.HelloRefusedException;
import org.salgate.client.SalClient;

/** The tokens of the suite's secured agents, and a helper for refused connections. */
final class TckTokens {

    static final String ADMIN = "tck-admin-0123456789abcdef";
    static final String READER = "tck-reader-0123456789abcdef";

    private TckTokens() {}

    static Tokens tokens() {
        return Tokens.parse(List.of("# the suite's tokens", ADMIN + " admin", READER + " reader"), "tck tokens");
    }

    /** Something that connects and must be refused at the hello. */
    interface Connect {
        SalClient connect() throws Exception;
    }

    static HelloRefusedException refused(Connect connect) {
        try {
            connect.connect().close();
        } catch (Exception e) {
            return assertInstanceOf(HelloRefusedException.class, e, "expected a refused hello, got " + e);
        }
        return fail("the agent accepted the connection");
    }
}
