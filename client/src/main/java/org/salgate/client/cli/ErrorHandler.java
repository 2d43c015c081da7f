package org.salgate.client.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.TimeoutException;

import org.salgate.client.ConnectionClosedException;
import org.salgate.client.SalException;
import org.salgate.sensorml.DocumentException;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/** Prints every failure as one sentence on stderr (a stack trace too with --verbose) and picks the exit code. */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {

    private final ConnectionOptions options;

    ErrorHandler(ConnectionOptions options) {
        this.options = options;
    }

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(message(ex));
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("run '" + cmd.getCommandSpec().qualifiedName() + " --help' for usage");
        if (options.verbose) {
            ex.printStackTrace(err);
        }
        err.flush();
        return ExitCodes.USAGE;
    }

    /** Picocli's message, said plainly where picocli's own wording confuses. */
    static String message(ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            CommandLine cmd = u.getCommandLine();
            if (first.startsWith("-")) {
                return "unknown option '" + first + "' for '" + cmd.getCommandSpec().qualifiedName() + "'";
            }
            if (!cmd.getSubcommands().isEmpty()) {
                return "unknown command '" + first + "'; the commands are: "
                        + String.join(", ", cmd.getSubcommands().keySet());
            }
            return "unexpected argument '" + first + "' for '" + cmd.getCommandSpec().qualifiedName() + "'";
        }
        if (ex.getArgSpec() instanceof OptionSpec o && ex.getCause() instanceof CommandLine.TypeConversionException t) {
            return o.longestName() + ": " + t.getMessage();
        }
        String m = String.valueOf(ex.getMessage());
        if (ex.getArgSpec() instanceof OptionSpec o && m.contains("should be in KEY=VALUE format")) {
            String given = m.substring(m.lastIndexOf("but was ") + "but was ".length());
            return o.longestName() + " takes name=value, such as " + o.longestName() + " size=64; got '" + given + "'";
        }
        return m;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        if (ex instanceof ParameterException pe) {
            return handleParseException(pe, parseResult.originalArgs().toArray(new String[0]));
        }
        PrintWriter err = cmd.getErr();
        int code;
        String message;
        if (ex instanceof SalException se) {
            Object command = cmd.getCommand();
            ErrorMessages.Subject subject = command instanceof BaseCommand b ? b.subject() : ErrorMessages.Subject.NONE;
            message = ErrorMessages.of(se, subject);
            code = ExitCodes.FAILED;
        } else if (ex instanceof CannotConnectException) {
            message = ex.getMessage();
            code = ExitCodes.CANNOT_CONNECT;
        } else if (ex instanceof ConnectionClosedException) {
            message = "lost the connection to the agent at " + options.address() + "; check that it is still running";
            code = ExitCodes.CANNOT_CONNECT;
        } else if (ex instanceof TimeoutException) {
            message = "the agent at " + options.address() + " did not answer within " + options.timeout.toMillis()
                    + " ms; try a longer --timeout";
            code = ExitCodes.FAILED;
        } else if (ex instanceof DocumentException) {
            message = "the agent sent a document that does not parse: " + ex.getMessage();
            code = ExitCodes.FAILED;
        } else if (ex instanceof IllegalArgumentException) {
            message = ex.getMessage();
            code = ExitCodes.USAGE;
        } else if (ex instanceof IOException) {
            message = "I/O error: " + ex.getMessage();
            code = ExitCodes.FAILED;
        } else {
            message = "unexpected error: " + ex + "; run with --verbose for details";
            code = ExitCodes.FAILED;
        }
        err.println(message);
        if (options.verbose) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }
}
