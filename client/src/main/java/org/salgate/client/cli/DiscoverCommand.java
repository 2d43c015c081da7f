package org.salgate.client.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.salgate.client.Counts;
import org.salgate.discovery.Discovery;
import org.salgate.discovery.FoundAgent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** Lists the agents that announce themselves on the LAN (agent option --announce). */
@Command(name = "discover", description = {"List the agents announced on the LAN over mDNS (_sal._tcp; agents started"
        + " with --announce), with whether each serves TLS and requires tokens.",
        "TLS and TOKENS are ? (null in json) for an agent whose announcement does not say."})
final class DiscoverCommand implements Callable<Integer> {

    @Option(names = "--wait", defaultValue = "5s", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How long to listen for answers (default: ${DEFAULT-VALUE}).")
    Duration wait;

    @Option(names = "--interface", paramLabel = "ADDRESS",
            description = "Address of the network interface to ask on (default: one chosen by the mDNS library).")
    String address;

    @Mixin
    OutputOption output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        InetAddress on;
        try {
            on = address == null ? null : InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            spec.commandLine().getErr().println("--interface '" + address + "' is not an address of this machine");
            return ExitCodes.USAGE;
        }
        List<FoundAgent> found;
        try {
            found = Discovery.browse(on, wait);
        } catch (IOException e) {
            spec.commandLine().getErr().println("cannot listen for mDNS announcements"
                    + (address == null ? "" : " on " + address) + ": " + e.getMessage());
            return ExitCodes.CANNOT_CONNECT;
        }
        PrintWriter out = spec.commandLine().getOut();
        switch (output.format()) {
            case json -> Output.jsonDocument(out, found.stream().map(DiscoverCommand::record).toList());
            case csv -> Output.csv(out, COLUMNS, found.stream().map(DiscoverCommand::record).toList());
            case table -> table(found, out);
        }
        return ExitCodes.OK;
    }

    static final List<String> COLUMNS = List.of("agent", "transport", "codec", "address", "port", "tls", "tokens");

    /** An agent found; {@code tls} and {@code tokens} are null when its announcement does not say (an older agent). */
    static Map<String, Object> record(FoundAgent a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("agent", a.agentId());
        m.put("transport", a.transport());
        m.put("codec", a.codec());
        m.put("address", a.host());
        m.put("port", a.port());
        m.put("tls", a.tls());
        m.put("tokens", a.tokens());
        return m;
    }

    private static void table(List<FoundAgent> found, PrintWriter out) {
        Table table = new Table("AGENT", "TRANSPORT", "CODEC", "ADDRESS", "PORT", "TLS", "TOKENS");
        for (FoundAgent a : found) {
            table.row(a.agentId(), a.transport(), a.codec(), a.host(), a.port(), yesNo(a.tls()), yesNo(a.tokens()));
        }
        table.print(out);
        out.println(Counts.of(found.size(), "agent"));
    }

    /** yes, no, or ? when the announcement does not say. */
    private static String yesNo(Boolean b) {
        return b == null ? "?" : b ? "yes" : "no";
    }
}
