package org.salgate.client.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.salgate.client.Counts;
import org.salgate.client.SalClient;
import org.salgate.model.ProtocolInfo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "protocols", description = "List the loaded protocols: plugins bound to endpoints.")
final class ProtocolsCommand extends BaseCommand {

    @Mixin
    OutputOption output;

    static final List<String> COLUMNS = List.of("name", "type", "endpoint", "sensors");

    @Override
    int run(SalClient client) throws Exception {
        List<ProtocolInfo> protocols = await(client.listProtocols());
        switch (output.format()) {
            case json -> Output.jsonDocument(out(), protocols.stream().map(ProtocolsCommand::record).toList());
            case csv -> Output.csv(out(), COLUMNS, protocols.stream().map(ProtocolsCommand::record).toList());
            case table -> print(protocols, out());
        }
        return ExitCodes.OK;
    }

    static Map<String, Object> record(ProtocolInfo p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", p.name());
        m.put("type", p.type());
        m.put("endpoint", p.endpoint());
        m.put("sensors", p.sensorCount());
        return m;
    }

    static void print(List<ProtocolInfo> protocols, PrintWriter out) {
        Table table = new Table("NAME", "TYPE", "ENDPOINT", "SENSORS");
        for (ProtocolInfo p : protocols) {
            table.row(p.name(), p.type(), p.endpoint(), p.sensorCount());
        }
        table.print(out);
        out.println(Counts.of(protocols.size(), "protocol"));
    }
}
