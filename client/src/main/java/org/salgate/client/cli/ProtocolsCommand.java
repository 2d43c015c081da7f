package org.salgate.client.cli;

import java.io.PrintWriter;
import java.util.List;

import org.salgate.client.SalClient;
import org.salgate.wire.ProtocolInfo;

import picocli.CommandLine.Command;

@Command(name = "protocols", description = "List the loaded protocols: plugins bound to endpoints.")
final class ProtocolsCommand extends BaseCommand {

    @Override
    int run(SalClient client) throws Exception {
        print(await(client.listProtocols()), out());
        return ExitCodes.OK;
    }

    static void print(List<ProtocolInfo> protocols, PrintWriter out) {
        Table table = new Table("NAME", "TYPE", "ENDPOINT", "SENSORS");
        for (ProtocolInfo p : protocols) {
            table.row(p.name(), p.type(), p.endpoint(), p.sensorCount());
        }
        table.print(out);
        out.println(Table.count(protocols.size(), "protocol"));
    }
}
