package org.salgate.bench.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;

/** Shared by the subcommands: exit codes, output streams, and one-sentence errors. */
abstract class BaseCommand implements Callable<Integer> {

    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    /** The run finished and wrote its reports, but some cells failed (listed in the report). */
    static final int EXIT_CELLS_FAILED = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** The command as typed, such as {@code bench matrix --quick}, for a report. */
    String commandLineAsTyped() {
        CommandLine.ParseResult root = spec.root().commandLine().getParseResult();
        List<String> args = root != null ? root.originalArgs() : List.of(spec.name());
        return "bench " + String.join(" ", args);
    }

    @Override
    public Integer call() throws Exception {
        return execute();
    }

    abstract int execute() throws Exception;

    /** An error as one sentence for the user, never a stack trace. */
    static String describe(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            m = e.getClass().getSimpleName();
        }
        return m;
    }
}
