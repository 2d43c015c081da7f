package org.salgate.bench.run;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The console progress line: the cell being run, cells done and left, and the remaining time,
 * estimated from the plan and corrected by how long the finished cells really took.
 */
public final class Progress {

    private final PrintStream out;
    private final int total;
    private final double totalEstimate;
    private final long startNanos = System.nanoTime();
    private int done;
    private double doneEstimate;

    public Progress(Plan plan, PrintStream out) {
        this.out = out;
        this.total = plan.size();
        this.totalEstimate = plan.estimateSeconds();
    }

    public synchronized void starting(PlannedCell cell, int reps) {
        out.printf(Locale.ROOT, "[%d/%d] %s rep %d/%d  (%d left, about %s to go)%n", done + 1, total, cell.key(),
                cell.rep(), reps, total - done, formatSeconds(remainingSeconds()));
        out.flush();
    }

    public synchronized void finished(PlannedCell cell, String summary) {
        done++;
        doneEstimate += cell.estimateSeconds();
        out.println("      " + summary);
        out.flush();
    }

    public synchronized void note(String message) {
        out.println(message);
        out.flush();
    }

    /** Remaining estimate, scaled by the ratio of real to estimated time so far. */
    public synchronized double remainingSeconds() {
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        double left = totalEstimate - doneEstimate;
        double factor = doneEstimate > 1 ? elapsed / doneEstimate : 1.0;
        return left * Math.max(0.5, Math.min(factor, 10));
    }

    public static String formatSeconds(double s) {
        long t = Math.round(s);
        if (t < 60) {
            return t + "s";
        }
        if (t < 3600) {
            return (t / 60) + "m" + String.format(Locale.ROOT, "%02d", t % 60) + "s";
        }
        return (t / 3600) + "h" + String.format(Locale.ROOT, "%02d", (t % 3600) / 60) + "m";
    }
}
