package org.salgate.bench;

import org.salgate.bench.cli.BenchCommand;
import org.salgate.program.ProgramDefaults;
import picocli.CommandLine;

/** Entry point of {@code bench.jar}: sets up and runs the command line. */
public final class BenchMain {

    private BenchMain() {}

    public static void main(String[] args) {
        ProgramDefaults.apply();
        System.setProperty("java.awt.headless", "true");
        System.exit(BenchCommand.commandLine().execute(args));
    }
}
