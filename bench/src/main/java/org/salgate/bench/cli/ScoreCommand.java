package org.salgate.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.salgate.bench.report.CsvFiles;
import org.salgate.bench.report.JsonSummary;
import org.salgate.bench.report.MachineInfo;
import org.salgate.bench.report.ReportWriter;
import org.salgate.bench.report.ScoreTables;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.ResultSet;
import org.salgate.bench.run.RunConfig;
import org.salgate.bench.run.RunOutcome;
import org.salgate.bench.run.RunScorer;
import org.salgate.bench.score.ScoreCard;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Re-scores a saved run from its results.csv, optionally against another baseline, and rewrites its reports. */
@Command(name = "score", mixinStandardHelpOptions = true,
        description = "Re-score a saved run folder (results.csv + summary.json) and rewrite its report, JSON and charts.")
final class ScoreCommand extends BaseCommand {

    @Parameters(paramLabel = "RESULTS_DIR", description = "A folder written by 'bench transport' or 'bench agent'.")
    Path dir;

    @Option(names = "--baseline", paramLabel = "NAME", description = "Score against this transport instead of the run's baseline.")
    String baseline;

    @Override
    int execute() throws Exception {
        Path csv = dir.resolve(CsvFiles.RESULTS);
        Path json = dir.resolve(JsonSummary.FILE);
        if (!Files.isRegularFile(csv) || !Files.isRegularFile(json)) {
            throw new IllegalArgumentException(dir + " is not a bench results folder: it needs " + CsvFiles.RESULTS
                    + " and " + JsonSummary.FILE);
        }
        JsonNode summary = JsonSummary.read(json);
        RunConfig config = JsonSummary.config(summary, dir, baseline);
        ResultSet results = new ResultSet(CsvFiles.readResults(csv));
        List<String> measured = results.transports(config.level()).stream()
                .filter(t -> !t.equals(org.salgate.bench.run.CellKey.RAW)).toList();
        if (!measured.contains(config.scoredBaseline())) {
            throw new IllegalArgumentException("the baseline '" + config.scoredBaseline() + "' was not measured in this run; "
                    + "measured: " + String.join(", ", measured));
        }
        Instant[] times = JsonSummary.times(summary);
        List<String> notes = new java.util.ArrayList<>();
        summary.path("notes").forEach(n -> notes.add(n.asText()));
        RunOutcome run = new RunOutcome(config, results, List.of(), notes, times[0], times[1]);
        Path md = ReportWriter.write(run, MachineInfo.current(), false);
        List<ScoreCard> scores = RunScorer.score(results, config.level(), config.scoredBaseline());
        out().println(config.level() == Level.TRANSPORT ? ScoreTables.transportLevel(scores, config.scoredBaseline())
                : ScoreTables.agentLevel(scores, config.scoredBaseline()));
        out().println("Report: " + md.toAbsolutePath());
        return EXIT_OK;
    }
}
