package org.salgate.client.cli;

import org.salgate.client.SalClient;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "describe", description = "Print a sensor's SensorML description.")
final class DescribeCommand extends BaseCommand {

    @Parameters(index = "0", paramLabel = "<sensor>", description = "The sensor id.")
    String sensor;

    @Override
    int run(SalClient client) throws Exception {
        out().println(await(client.describeSensorXml(sensor)));
        return ExitCodes.OK;
    }

    @Override
    ErrorMessages.Subject subject() {
        return ErrorMessages.Subject.sensor(sensor);
    }
}
