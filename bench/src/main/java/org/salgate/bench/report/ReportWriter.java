package org.salgate.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.salgate.bench.run.Panel;
import org.salgate.bench.run.RunOutcome;
import org.salgate.bench.run.RunScorer;
import org.salgate.bench.score.MethodRatio;
import org.salgate.bench.score.ScoreCard;

/**
 * Writes a run's folder: {@code results.csv}, {@code samples.csv}, {@code summary.json},
 * {@code report.md} and {@code charts/figure2-*.png}.
 */
public final class ReportWriter {

    public static final String CHARTS = "charts";

    private ReportWriter() {}

    /** Scores the run and writes every report file into its output folder; returns the Markdown report's path. */
    public static Path write(RunOutcome run, MachineInfo machine, boolean writeRaw) throws IOException {
        Path dir = run.config().out();
        Files.createDirectories(dir);
        if (writeRaw) {
            CsvFiles.writeResults(dir.resolve(CsvFiles.RESULTS), run.results().all());
            CsvFiles.writeSamples(dir.resolve(CsvFiles.SAMPLES), run.samples());
        }
        String baseline = run.config().scoredBaseline();
        List<ScoreCard> scores = RunScorer.score(run.results(), run.config().level(), baseline);
        Map<Panel, Map<String, MethodRatio>> ratios = RunScorer.ratios(run.results(), run.config().level(), baseline);
        List<Ceiling.Row> ceiling = Ceiling.rows(run.results());
        List<Path> charts = Charts.write(dir.resolve(CHARTS), ratios, baseline);
        JsonSummary.write(dir.resolve(JsonSummary.FILE), run, machine, scores, ratios, ceiling);
        List<String> rel = charts.stream().map(p -> dir.relativize(p).toString().replace('\\', '/')).toList();
        Path md = dir.resolve(MarkdownReport.FILE);
        Files.writeString(md, MarkdownReport.render(run, machine, scores, ratios, ceiling, rel), StandardCharsets.UTF_8);
        return md;
    }
}
