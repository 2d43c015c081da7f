package org.salgate.client.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Which command of which sensor, with which arguments: shared by {@code read} and {@code stream}. */
final class CommandCall {

    @Parameters(index = "0", paramLabel = "<sensor>", description = "The sensor id, as 'list' shows it.")
    String sensor;

    @Option(names = "--command", paramLabel = "<id>", description = "The command (default: ${DEFAULT-VALUE}).")
    String command = "read";

    @Option(names = "--arg", paramLabel = "<name=value>", description = "A command argument; repeat for several.")
    Map<String, String> args = new LinkedHashMap<>();

    ErrorMessages.Subject subject() {
        return ErrorMessages.Subject.command(sensor, command);
    }
}
