package org.salgate.client.cli;

import org.salgate.client.SalClient;

import picocli.CommandLine.Command;

@Command(name = "config", description = "Print the agent's platform configuration (PCML).")
final class ConfigCommand extends BaseCommand {

    @Override
    int run(SalClient client) throws Exception {
        out().println(await(client.platformConfigXml()));
        return ExitCodes.OK;
    }
}
