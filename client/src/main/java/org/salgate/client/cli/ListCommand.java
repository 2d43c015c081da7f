package org.salgate.client.cli;

import java.util.List;

import org.salgate.client.SalClient;
import org.salgate.wire.SensorInfo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "list", description = "List the agent's sensors.")
final class ListCommand extends BaseCommand {

    @Option(names = "--active", description = "Only the sensors that are streaming.")
    boolean active;

    @Override
    int run(SalClient client) throws Exception {
        List<SensorInfo> sensors = await(active ? client.listActiveSensors() : client.listSensors());
        Table table = new Table("ID", "PROTOCOL", "STATE", "DESCRIPTION");
        for (SensorInfo s : sensors) {
            table.row(s.id(), s.protocol(), s.state(), s.description());
        }
        table.print(out());
        out().println(Table.count(sensors.size(), active ? "active sensor" : "sensor"));
        return ExitCodes.OK;
    }
}
