package org.salgate.client.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.salgate.client.Counts;
import org.salgate.client.SalClient;
import org.salgate.model.SensorInfo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "list", description = "List the agent's sensors.")
final class ListCommand extends BaseCommand {

    @Option(names = "--active", description = "Only the sensors that are streaming.")
    boolean active;

    @Mixin
    OutputOption output;

    static final List<String> COLUMNS = List.of("id", "protocol", "state", "description");

    @Override
    int run(SalClient client) throws Exception {
        List<SensorInfo> sensors = await(active ? client.listActiveSensors() : client.listSensors());
        switch (output.format()) {
            case json -> Output.jsonDocument(out(), sensors.stream().map(ListCommand::record).toList());
            case csv -> Output.csv(out(), COLUMNS, sensors.stream().map(ListCommand::record).toList());
            case table -> table(sensors);
        }
        return ExitCodes.OK;
    }

    static Map<String, Object> record(SensorInfo s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.id());
        m.put("protocol", s.protocol());
        m.put("state", s.state().name());
        m.put("description", s.description());
        return m;
    }

    private void table(List<SensorInfo> sensors) {
        Table table = new Table("ID", "PROTOCOL", "STATE", "DESCRIPTION");
        for (SensorInfo s : sensors) {
            table.row(s.id(), s.protocol(), s.state(), s.description());
        }
        table.print(out());
        out().println(Counts.of(sensors.size(), active ? "active sensor" : "sensor"));
    }
}
