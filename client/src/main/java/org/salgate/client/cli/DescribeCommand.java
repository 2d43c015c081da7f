package org.salgate.client.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.salgate.client.SalClient;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "describe", description = {"Print a sensor's SensorML description.",
        "table prints the document as it is; json and csv give it as the field sensorML beside the sensor id."})
final class DescribeCommand extends BaseCommand {

    @Parameters(index = "0", paramLabel = "<sensor>", description = "The sensor id.")
    String sensor;

    @Mixin
    OutputOption output;

    static final List<String> COLUMNS = List.of("sensor", "sensorML");

    @Override
    int run(SalClient client) throws Exception {
        String document = await(client.describeSensorXml(sensor));
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("sensor", sensor);
        record.put("sensorML", document);
        switch (output.format()) {
            case json -> Output.jsonDocument(out(), record);
            case csv -> Output.csv(out(), COLUMNS, List.of(record));
            case table -> out().println(document);
        }
        return ExitCodes.OK;
    }

    @Override
    ErrorMessages.Subject subject() {
        return ErrorMessages.Subject.sensor(sensor);
    }
}
