package org.salgate.client.cli;

import java.nio.file.Path;

import org.salgate.client.SalClient;
import org.salgate.model.SensorInfo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "add-sensor", description = "Add a sensor from its SensorML description.")
final class AddSensorCommand extends BaseCommand {

    @Parameters(index = "0", paramLabel = "<sensorml-file>", description = "The SensorML document.")
    Path file;

    private String sensorMl;

    @Override
    void prepare() {
        sensorMl = DocumentFile.read(spec.commandLine(), file, "SensorML");
    }

    @Override
    int run(SalClient client) throws Exception {
        SensorInfo s = await(client.addSensor(sensorMl));
        out().println("added sensor " + s.id() + " (protocol " + s.protocol() + ", " + s.state() + ")");
        return ExitCodes.OK;
    }
}
