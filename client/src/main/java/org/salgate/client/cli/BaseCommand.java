package org.salgate.client.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.salgate.client.SalClient;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A subcommand that talks to the agent: connects with the root's options, runs, and closes.
 * Failures are thrown and turned into a one-line message and an exit code by {@link ErrorHandler}.
 */
abstract class BaseCommand implements Callable<Integer> {

    @ParentCommand
    SalCommand root;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() throws Exception {
        prepare();
        try (SalClient client = root.connection.connect()) {
            return run(client);
        }
    }

    /** Work done before connecting, such as reading a file; throw a ParameterException for bad input. */
    void prepare() throws Exception {}

    /** Does the work; returns the exit code. */
    abstract int run(SalClient client) throws Exception;

    /** The sensor, command and protocol this command is about, for error messages. */
    ErrorMessages.Subject subject() {
        return ErrorMessages.Subject.NONE;
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** Waits for a future (bounded by the request timeout) and throws its failure itself, not wrapped. */
    static <T> T await(CompletableFuture<T> future) throws Exception {
        try {
            return future.get();
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof Exception ex) {
                throw ex;
            }
            throw (Error) cause;
        }
    }
}
