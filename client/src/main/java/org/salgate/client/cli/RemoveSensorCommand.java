package org.salgate.client.cli;

import org.salgate.client.SalClient;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "remove-sensor", description = "Remove a sensor; its streams end.")
final class RemoveSensorCommand extends BaseCommand {

    @Parameters(index = "0", paramLabel = "<sensor>", description = "The sensor id.")
    String sensor;

    @Override
    int run(SalClient client) throws Exception {
        await(client.removeSensor(sensor));
        out().println("removed sensor " + sensor);
        return ExitCodes.OK;
    }

    @Override
    ErrorMessages.Subject subject() {
        return ErrorMessages.Subject.sensor(sensor);
    }
}
