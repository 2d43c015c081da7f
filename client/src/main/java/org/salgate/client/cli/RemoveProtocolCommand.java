package org.salgate.client.cli;

import org.salgate.client.SalClient;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "remove-protocol", description = "Remove a protocol and its sensors.")
final class RemoveProtocolCommand extends BaseCommand {

    @Parameters(index = "0", paramLabel = "<name>", description = "The protocol's name, as 'protocols' shows it.")
    String name;

    @Override
    int run(SalClient client) throws Exception {
        await(client.removeProtocol(name));
        out().println("removed protocol " + name);
        return ExitCodes.OK;
    }

    @Override
    ErrorMessages.Subject subject() {
        return ErrorMessages.Subject.protocol(name);
    }
}
