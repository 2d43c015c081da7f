package org.salgate.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.salgate.bench.report.JsonSummary;
import org.salgate.bench.report.RunComparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Sets two saved runs side by side, cell by cell: the before/after of a change. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compare two saved run folders cell by cell (median [min-max] of each, after/before).",
                "A difference is reported only where the two [min-max] ranges do not overlap.",
                "Runs on different days or machines are not comparable: measure both in one sitting "
                        + "(bench/before-after.sh does)."})
final class CompareCommand extends BaseCommand {

    @Parameters(index = "0", paramLabel = "BEFORE_DIR", description = "The run of the old code.")
    Path before;

    @Parameters(index = "1", paramLabel = "AFTER_DIR", description = "The run of the new code.")
    Path after;

    @Option(names = "--metrics", split = ",", paramLabel = "METRIC",
            description = "Metrics to compare, the first one a cell has wins (default: msgs_per_s,calls_per_s,mean_us).")
    List<String> metrics = List.of("msgs_per_s", "calls_per_s", "mean_us");

    @Option(names = "--labels", split = ",", paramLabel = "LABEL",
            description = "Column titles for the two runs (default: before,after).")
    List<String> labels = List.of("before", "after");

    @Override
    int execute() throws Exception {
        if (labels.size() != 2) {
            throw new IllegalArgumentException("--labels takes two titles, such as 54366d5,e8e6948");
        }
        JsonNode b = read(before);
        JsonNode a = read(after);
        List<RunComparison.Row> rows = RunComparison.rows(b, a, metrics);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("the two runs have no cell with one of " + metrics + " in common");
        }
        out().print(RunComparison.markdown(rows, labels.get(0), labels.get(1)));
        out().flush();
        return EXIT_OK;
    }

    private static JsonNode read(Path dir) throws java.io.IOException {
        Path json = dir.resolve(JsonSummary.FILE);
        if (!Files.isRegularFile(json)) {
            throw new IllegalArgumentException(dir + " is not a bench results folder: it has no " + JsonSummary.FILE);
        }
        return JsonSummary.read(json);
    }
}
