package org.salgate.client.cli;

import java.util.Map;
import java.util.concurrent.Callable;

import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** The root command: the connection options and the subcommands; {@link ClientMain} adds the help's footer. */
@Command(name = "salgate-client", version = "salgate-client 0.1.0",
        description = "Talk to a salgate agent: list, describe, read and stream its sensors, and configure it.",
        subcommands = {ListCommand.class, DescribeCommand.class, CommandsCommand.class, ReadCommand.class,
                StreamCommand.class, ProtocolsCommand.class, ConfigCommand.class, AddProtocolCommand.class,
                RemoveProtocolCommand.class, AddSensorCommand.class, RemoveSensorCommand.class, EventsCommand.class,
                DiscoverCommand.class})
final class SalCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    /** Inherited, so that every subcommand answers {@code --help} too. */
    @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT,
            description = "Show this help message and exit.")
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print version information and exit.")
    boolean version;

    @Option(names = {"-o", "--output"}, paramLabel = "<format>",
            description = "table, json or csv for the command that follows (list, describe, commands, read, stream,"
                    + " events, protocols, discover).")
    OutputOption.Format output;

    @Option(names = "--list-transports", description = "List the transports available here and exit.")
    boolean listTransports;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (!listTransports) {
            spec.commandLine().getErr().println("missing subcommand; run 'salgate-client --help' to see them");
            return ExitCodes.USAGE;
        }
        Map<String, TransportProvider> transports = Transports.available();
        if (transports.isEmpty()) {
            spec.commandLine().getErr().println("no transport is on the class path; add a module such as"
                    + " salgate-transport-netty");
            return ExitCodes.USAGE;
        }
        Table table = new Table("NAME", "DESCRIPTION");
        transports.values().forEach(p -> table.row(p.name(), p.description()));
        table.print(spec.commandLine().getOut());
        return ExitCodes.OK;
    }
}
