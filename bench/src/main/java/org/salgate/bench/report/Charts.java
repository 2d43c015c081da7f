package org.salgate.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.salgate.bench.run.Metrics;
import org.salgate.bench.run.Panel;
import org.salgate.bench.score.Direction;
import org.salgate.bench.score.MethodRatio;

/**
 * The paper's Figure 2 as PNG files: one chart per panel, each transport's ratio to the baseline
 * (percent) against the client count, with the baseline's 100 % as a dashed line; the y axis says
 * that above 100 is better (less CPU, memory or time; more calls or messages). Headless.
 */
public final class Charts {

    private Charts() {}

    /**
     * The y axis says which way is better, since for times and resources the ratio is inverted:
     * "ratio to rmi (%): above 100 = less CPU than rmi".
     */
    static String yAxisTitle(Panel p, String baseline) {
        String better = switch (p.metric()) {
            case Metrics.CPU_PCT -> "less CPU";
            case Metrics.RSS_MB -> "less memory";
            case Metrics.MEAN_US -> "shorter round trips";
            case Metrics.CALLS_PER_S -> "more calls/s";
            case Metrics.MSGS_PER_S -> "more messages/s";
            default -> p.direction() == Direction.LOWER_IS_BETTER ? "less" : "more";
        };
        return "ratio to " + baseline + " (%): above 100 = " + better + " than " + baseline;
    }

    /** Writes one PNG per panel into {@code dir}; returns the files written. */
    public static List<Path> write(Path dir, Map<Panel, Map<String, MethodRatio>> ratios, String baseline)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (var e : ratios.entrySet()) {
            Panel p = e.getKey();
            XYChart chart = new XYChartBuilder().width(640).height(420)
                    .title("Figure 2 " + p.id() + ": " + p.title() + " (" + baseline + " = 100 %)")
                    .xAxisTitle("clients").yAxisTitle(yAxisTitle(p, baseline)).build();
            chart.getStyler().setLegendVisible(true);
            List<Integer> allCounts = new ArrayList<>();
            for (var t : e.getValue().entrySet()) {
                List<Integer> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                t.getValue().perClients().forEach((c, r) -> {
                    if (Double.isFinite(r)) {
                        x.add(c);
                        y.add(r);
                    }
                });
                if (!x.isEmpty()) {
                    chart.addSeries(t.getKey(), x, y).setMarker(SeriesMarkers.CIRCLE);
                    x.forEach(c -> {
                        if (!allCounts.contains(c)) {
                            allCounts.add(c);
                        }
                    });
                }
            }
            if (!allCounts.isEmpty()) {
                allCounts.sort(Integer::compare);
                List<Integer> bx = List.of(allCounts.get(0), allCounts.get(allCounts.size() - 1));
                XYSeries base = chart.addSeries(baseline, bx, List.of(100.0, 100.0));
                base.setMarker(SeriesMarkers.NONE);
                base.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
            } else {
                chart.addSeries("no data", List.of(0), List.of(100.0));
            }
            Path file = dir.resolve("figure2-" + p.id() + "-" + p.title().toLowerCase(java.util.Locale.ROOT)
                    .replaceAll("[^a-z0-9]+", "-") + ".png");
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            written.add(file);
        }
        return written;
    }
}
