package org.salgate.client.cli;

import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The bearer token the client presents to an agent that requires one. */
final class TokenOptions {

    /** The environment variable read when {@code --token} is not given. */
    static final String ENV = "SALGATE_TOKEN";

    @Option(names = "--token", paramLabel = "<token>", scope = ScopeType.INHERIT, defaultValue = "${env:" + ENV + "}",
            showDefaultValue = Visibility.NEVER,
            description = "The token for an agent started with --tokens (default: the " + ENV + " environment "
                    + "variable, which is better: other users of this machine can see command lines).")
    String token;

    /** The token given, or the empty string for none. */
    String token() {
        return token == null ? "" : token.strip();
    }
}
