package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.salgate.agent.session.Tokens;
import org.salgate.client.HelloRefusedException;
import org.salgate.client.SalClient;

/** The tokens of the suite's secured agents, and a helper for refused connections. */
public final class TckTokens {

    public static final String ADMIN = "tck-admin-0123456789abcdef";
    public static final String READER = "tck-reader-0123456789abcdef";

    private TckTokens() {}

    public static Tokens tokens() {
        return Tokens.parse(lines(), "tck tokens");
    }

    /** The suite's tokens as a tokens file in a new temporary file, for an agent run as a program ({@code --tokens}). */
    public static Path file(String prefix) throws IOException {
        Path file = Files.createTempFile(prefix, ".txt");
        Files.write(file, lines(), StandardCharsets.UTF_8);
        return file;
    }

    private static List<String> lines() {
        return List.of("# the suite's tokens", ADMIN + " admin", READER + " reader");
    }

    /** Something that connects and must be refused at the hello. */
    interface Connect {
        SalClient connect() throws Exception;
    }

    public static HelloRefusedException refused(Connect connect) {
        try {
            connect.connect().close();
        } catch (Exception e) {
            return assertInstanceOf(HelloRefusedException.class, e, "expected a refused hello, got " + e);
        }
        return fail("the agent accepted the connection");
    }
}
