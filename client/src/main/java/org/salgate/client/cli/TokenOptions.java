package org.salgate.client.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The bearer token the client presents to an agent that requires one. */
final class TokenOptions {

    @Option(names = "--token", paramLabel = "<token>", scope = ScopeType.INHERIT,
            description = "The token for an agent started with --tokens (default: the SALGATE_TOKEN environment "
                    + "variable, which is better: other users of this machine can see command lines).")
    String token;

    /** The token given, or the empty string for none. */
    String token() {
        return token == null ? "" : token.strip();
    }
}
