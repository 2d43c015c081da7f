package org.salgate.client.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code --output} option of the commands that print sensors, readings, commands, protocols or events. */
final class OutputOption {

    /** How a command prints what it got. */
    enum Format {
        /** Aligned columns with a count line, for people (documents as they are). */
        table,
        /** JSON: one document for a listing, one object per line for readings and events as they come. */
        json,
        /** CSV with a header line. */
        csv
    }

    @Option(names = {"-o", "--output"}, paramLabel = "<format>",
            description = "table, json or csv (default: table, or the one given before the command); json is one"
                    + " document, or one object per line for stream and events.")
    Format given;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** This command's format: its own --output, else the one given before the command, else table. */
    Format format() {
        if (given != null) {
            return given;
        }
        CommandSpec parent = command == null ? null : command.parent();
        if (parent != null && parent.userObject() instanceof SalCommand root && root.output != null) {
            return root.output;
        }
        return Format.table;
    }
}
