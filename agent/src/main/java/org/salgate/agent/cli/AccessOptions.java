package org.salgate.agent.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.salgate.agent.AgentBuilder;
import org.salgate.agent.session.Tokens;
import picocli.CommandLine.Option;

/**
 * Who may use the agent and what it may load and reach: tokens, plugin directories, relay targets,
 * devices.
 */
final class AccessOptions {

    @Option(names = "--tokens", paramLabel = "FILE",
            description = "Clients must present one of the tokens in FILE (a line each: TOKEN reader|admin); "
                    + "without it every client is admin.")
    Path tokens;

    @Option(names = "--insecure",
            description = "Allow listening on a non-loopback address without TLS and tokens (logs a warning).")
    boolean insecure;

    @Option(names = "--plugin-dir", paramLabel = "DIR",
            description = "A directory protocols may load plugin jars from at run time; repeatable (default: none).")
    List<Path> pluginDirs = new ArrayList<>();

    @Option(names = "--relay-allow", paramLabel = "HOST:PORT", split = ",",
            description = "A lower agent protocols of type agent may connect to; repeatable (default: none).")
    List<String> relayTargets = new ArrayList<>();

    @Option(names = "--device-allow", paramLabel = "DEVICE", split = ",",
            description = "A device protocols may reach: HOST:PORT, HOST:* for any port, or /dev/PATH, where a "
                    + "star matches any characters but /; repeatable (default: none).")
    List<String> deviceTargets = new ArrayList<>();

    boolean tokensConfigured() {
        return tokens != null;
    }

    /**
     * Applies the options to the builder.
     *
     * @throws IllegalArgumentException saying which option is wrong and why
     */
    void applyTo(AgentBuilder builder) {
        if (tokens != null) {
            try {
                builder.tokens(Tokens.read(tokens));
            } catch (java.nio.file.NoSuchFileException e) {
                throw new IllegalArgumentException("cannot read the tokens file " + tokens + ": there is no such file");
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the tokens file " + tokens + ": " + e.getMessage());
            }
        }
        builder.pluginDirectories(pluginDirs).relayTargets(relayTargets).deviceTargets(deviceTargets);
    }
}
