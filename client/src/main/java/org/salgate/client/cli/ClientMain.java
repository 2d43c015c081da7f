package org.salgate.client.cli;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Map;

import org.salgate.program.ProgramDefaults;

import picocli.CommandLine;

/** The client CLI: {@code java -jar client.jar [connection options] <subcommand>}; see {@code --help}. */
public final class ClientMain {

    private ClientMain() {}

    /** Runs the CLI and exits with its exit code (see {@link ExitCodes}); library logs show from WARN up. */
    public static void main(String[] args) {
        ProgramDefaults.apply();
        if (!Arrays.asList(args).contains("--verbose")) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                    System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        }
        PrintWriter out = new PrintWriter(System.out, true, Charset.defaultCharset());
        PrintWriter err = new PrintWriter(System.err, true, Charset.defaultCharset());
        System.exit(execute(out, err, System.getenv(), args));
    }

    /** Runs the CLI with its output going to {@code out} and {@code err}, without environment variables; returns the exit code. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        return execute(out, err, Map.of(), args);
    }

    /** Runs the CLI with these environment variables (see {@code --help}); returns the exit code. */
    public static int execute(PrintWriter out, PrintWriter err, Map<String, String> environment, String... args) {
        try {
            return commandLine(out, err, environment).execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The environment variables that give options their defaults, by the option's longest name. */
    public static Map<String, String> environmentVariables() {
        return Environment.VARIABLES;
    }

    /** The configured command line without environment variables, for tests and embedding. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, Map.of());
    }

    /** The configured command line, its option defaults taken from these environment variables. */
    static CommandLine commandLine(PrintWriter out, PrintWriter err, Map<String, String> environment) {
        SalCommand root = new SalCommand();
        CommandLine cmd = new CommandLine(root);
        Environment variables = new Environment(environment);
        root.connection.environment = variables;
        cmd.setDefaultValueProvider(variables);
        cmd.getCommandSpec().usageMessage().footer("", Environment.help(), ExitCodes.help());
        ErrorHandler errors = new ErrorHandler(root.connection);
        cmd.setOut(out);
        cmd.setErr(err);
        cmd.setParameterExceptionHandler(errors);
        cmd.setExecutionExceptionHandler(errors);
        return cmd;
    }
}
