package org.salgate.client.cli;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.salgate.client.SalClient;
import org.salgate.model.Reading;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "read", description = {"Execute a command once and print the reading.",
        "Exits with 1 when the reading has the ERROR status."})
final class ReadCommand extends BaseCommand {

    @Mixin
    CommandCall call;

    @Mixin
    OutputOption output;

    @Override
    int run(SalClient client) throws Exception {
        CompletableFuture<Reading> reading = client.execute(call.sensor, call.command, call.args);
        CompletableFuture<String> unit = Units.of(client, call.sensor, call.command);
        Reading r = await(reading);
        switch (output.format()) {
            case json -> Output.jsonDocument(out(), Output.reading(r, await(unit), false));
            case csv -> Output.csv(out(), Output.readingColumns(false), List.of(Output.reading(r, await(unit), false)));
            case table -> out().println(r.sensorId() + "  " + ReadingFormat.line(r, await(unit)));
        }
        return r.status() == Reading.Status.ERROR ? ExitCodes.FAILED : ExitCodes.OK;
    }

    @Override
    ErrorMessages.Subject subject() {
        return call.subject();
    }
}
