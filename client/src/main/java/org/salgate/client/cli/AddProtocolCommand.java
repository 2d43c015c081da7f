package org.salgate.client.cli;

import java.nio.file.Path;
import java.util.List;

import org.salgate.client.Counts;
import org.salgate.client.SalClient;
import org.salgate.model.ProtocolInfo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "add-protocol", description = "Add the protocols of a PCML file, loading their plugins.")
final class AddProtocolCommand extends BaseCommand {

    @Parameters(index = "0", paramLabel = "<pcml-file>", description = "The PCML document.")
    Path file;

    private String pcml;

    @Override
    void prepare() {
        pcml = DocumentFile.read(spec.commandLine(), file, "PCML");
    }

    @Override
    int run(SalClient client) throws Exception {
        List<ProtocolInfo> added = await(client.addProtocol(pcml));
        for (ProtocolInfo p : added) {
            out().println("added protocol " + p.name() + " (type " + p.type() + ", endpoint " + p.endpoint() + ", "
                    + Counts.of(p.sensorCount(), "sensor") + ")");
        }
        if (added.isEmpty()) {
            out().println("the document added no protocol");
        }
        return ExitCodes.OK;
    }
}
