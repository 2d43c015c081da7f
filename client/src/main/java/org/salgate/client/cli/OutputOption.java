package org.salgate.client.cli;

import picocli.CommandLine.Option;

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
            description = "table, json or csv (default: ${DEFAULT-VALUE}); json is one document, or one object"
                    + " per line for stream and events.")
    Format format = Format.table;
}
