package org.salgate.bench.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The root command: lists the subcommands. */
@Command(name = "bench", mixinStandardHelpOptions = true, version = "salgate bench 0.1.0",
        description = "Measures salgate's transports the way the SAL paper did and scores them against a baseline.",
        footer = {"", "Exit codes: 0 done, 1 failed, 2 bad usage, 3 finished with failed cells (see the report)."},
        subcommands = {TransportCommand.class, AgentCommand.class, ScoreCommand.class, PaperCommand.class,
                CodecCommand.class, MatrixCommand.class, MqttCommand.class, CompareCommand.class, RestGrpcCommand.class, ScaleCommand.class,
                DevicesCommand.class,
                CommandLine.HelpCommand.class})
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The configured command line, with the converters and error handling every subcommand shares. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new BenchCommand());
        cl.registerConverter(java.time.Duration.class, new DurationConverter());
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("bench: " + BaseCommand.describe(e));
            if (Boolean.getBoolean("bench.trace")) {
                e.printStackTrace(commandLine.getErr());
            } else if (!(e instanceof IllegalArgumentException || e instanceof IllegalStateException
                    || e instanceof java.io.IOException)) {
                commandLine.getErr().println("(an internal error; run with -Dbench.trace=true for the details)");
            }
            return BaseCommand.EXIT_FAILED;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
