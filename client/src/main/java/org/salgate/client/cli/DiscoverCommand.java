package org.salgate.client.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.salgate.client.Counts;
import org.salgate.discovery.Discovery;
import org.salgate.discovery.FoundAgent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** Lists the agents that announce themselves on the LAN (agent option --announce). */
@Command(name = "discover", description = "List the agents announced on the LAN over mDNS (_sal._tcp; agents started"
        + " with --announce).")
final class DiscoverCommand implements Callable<Integer> {

    @Option(names = "--wait", defaultValue = "5s", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "How long to listen for answers (default: ${DEFAULT-VALUE}).")
    Duration wait;

    @Option(names = "--interface", paramLabel = "ADDRESS",
            description = "Address of the network interface to ask on (default: one chosen by the mDNS library).")
    String address;

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
        Table table = new Table("AGENT", "TRANSPORT", "CODEC", "ADDRESS", "PORT");
        for (FoundAgent a : found) {
            table.row(a.agentId(), a.transport(), a.codec(), a.host(), a.port());
        }
        table.print(spec.commandLine().getOut());
        spec.commandLine().getOut().println(Counts.of(found.size(), "agent"));
        return ExitCodes.OK;
    }
}
