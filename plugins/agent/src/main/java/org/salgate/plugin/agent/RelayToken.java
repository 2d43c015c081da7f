package org.salgate.plugin.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.salgate.plugin.spi.PluginException;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The token a relay presents to its lower agent, from the parameter {@code tokenFile} (a file whose
 * first line that is neither blank nor a {@code #} comment is the token) or {@code tokenEnv} (the
 * name of an environment variable of the upper agent holding it). Never the token's text in the
 * PCML: {@code config} shows the PCML to admins.
 */
final class RelayToken {

    private RelayToken() {}

    /**
     * The token, or the empty string when neither parameter is given.
     *
     * @throws PluginException when both are given, or the file or variable holds no token
     */
    static String of(ProtocolConfig config, UnaryOperator<String> environment) throws PluginException {
        String name = config.name();
        String file = config.parameters().get(RelayConfig.TOKEN_FILE);
        String variable = config.parameters().get(RelayConfig.TOKEN_ENV);
        if (file != null && variable != null) {
            throw new PluginException("Protocol " + name + " takes one of tokenFile and tokenEnv, not both.");
        }
        if (file != null) {
            return fromFile(name, file.trim());
        }
        if (variable != null) {
            String value = environment.apply(variable.trim());
            if (value == null || value.isBlank()) {
                throw new PluginException("Parameter tokenEnv of protocol " + name + " names the environment variable "
                        + variable.trim() + ", which is not set in the agent's environment; set it to the lower"
                        + " agent's token before starting the agent.");
            }
            return value.strip();
        }
        return "";
    }

    private static String fromFile(String name, String file) throws PluginException {
        try {
            for (String line : Files.readAllLines(Path.of(file), StandardCharsets.UTF_8)) {
                String token = line.strip();
                if (!token.isEmpty() && !token.startsWith("#")) {
                    return token;
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new PluginException("Parameter tokenFile of protocol " + name + ": cannot read " + file + ": "
                    + LowerAgent.message(e) + "; give a file readable by the agent holding the lower agent's token.", e);
        }
        throw new PluginException("Parameter tokenFile of protocol " + name + ": " + file + " holds no token; write"
                + " the lower agent's token on a line of its own.");
    }
}
