package org.salgate.client.cli;

import java.util.List;

import org.salgate.client.SalClient;
import org.salgate.model.Reading;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "read", description = {"Execute a command once and print the reading.",
        "Exits with 1 when the reading has the ERROR or DISCONNECTED status."})
final class ReadCommand extends BaseCommand {

    @Mixin
    CommandCall call;

    @Mixin
    OutputOption output;

    @Override
    int run(SalClient client) throws Exception {
        Reading r = await(client.execute(call.sensor, call.command, call.args));
        switch (output.format()) {
            case json -> Output.jsonDocument(out(), Output.reading(r, false));
            case csv -> Output.csv(out(), Output.readingColumns(false), List.of(Output.reading(r, false)));
            case table -> out().println(r.sensorId() + "  " + ReadingFormat.line(r));
        }
        return r.status().failed() ? ExitCodes.FAILED : ExitCodes.OK;
    }

    @Override
    ErrorMessages.Subject subject() {
        return call.subject();
    }
}
