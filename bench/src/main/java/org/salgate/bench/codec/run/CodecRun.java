package org.salgate.bench.codec.run;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.salgate.bench.codec.format.PayloadFormats;
import org.salgate.wire.Codec;
import org.salgate.wire.Codecs;

/** Runs every codec on every workload, one case after the other, with progress on the console. */
public final class CodecRun {

    private final CodecRunConfig config;
    private final PrintWriter console;

    public CodecRun(CodecRunConfig config, PrintWriter console) {
        this.config = config;
        this.console = console;
    }

    /** Every codec name known: the payload formats in report order, then wire-only codecs. */
    public static List<String> knownCodecs() {
        Set<String> names = new LinkedHashSet<>(PayloadFormats.names());
        names.addAll(Codecs.available().keySet());
        return List.copyOf(names);
    }

    /**
     * Checks that every name is a codec.
     *
     * @throws IllegalArgumentException naming the codecs there are
     */
    public static void checkCodecs(List<String> names) {
        List<String> known = knownCodecs();
        for (String n : names) {
            if (!known.contains(n)) {
                throw new IllegalArgumentException("unknown codec '" + n + "'; available: " + String.join(", ", known));
            }
        }
    }

    public CodecOutcome run() throws IOException {
        Instant started = Instant.now();
        checkCodecs(config.codecs());
        console.println("Building workloads: " + String.join(", ", config.workloads()));
        console.flush();
        List<CodecWorkload> workloads = CodecWorkloads.build(config.workloads(), config.seed());
        for (CodecWorkload w : workloads) {
            console.println("  " + w.name() + ": " + w.detail());
        }
        List<PlannedCase> plan = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        plan(workloads, plan, skipped);
        CodecHarness harness = new CodecHarness(config.harness());
        List<CaseResult> results = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < plan.size(); i++) {
            PlannedCase c = plan.get(i);
            double left = remainingSeconds(plan.size() - i, i, (System.nanoTime() - t0) / 1e9);
            console.printf(Locale.ROOT, "[%d/%d] %s x %s  (about %s left)%n", i + 1, plan.size(), c.codec(),
                    c.workload().name(), org.salgate.bench.run.Progress.formatSeconds(left));
            console.flush();
            CaseResult r = harness.run(c.codec(), c.workload().name(), c.serializer(), c.workload().value());
            console.println("      " + summary(r));
            console.flush();
            results.add(r);
        }
        return new CodecOutcome(config, workloads, results, skipped, harness.allocationSupported(), started,
                Instant.now());
    }

    private void plan(List<CodecWorkload> workloads, List<PlannedCase> plan, List<String> skipped) {
        Map<String, Codec> wire = Codecs.available();
        List<String> payload = PayloadFormats.names();
        for (CodecWorkload w : workloads) {
            for (String codec : config.codecs()) {
                if (w.wire() && wire.containsKey(codec)) {
                    plan.add(new PlannedCase(codec, w, Serializer.wire(wire.get(codec))));
                } else if (!w.wire() && payload.contains(codec)) {
                    plan.add(new PlannedCase(codec, w, Serializer.payload(PayloadFormats.byName(codec),
                            w.value().getClass())));
                } else {
                    skipped.add(codec + " x " + w.name() + " (no " + (w.wire() ? "wire codec" : "payload format")
                            + " named " + codec + ")");
                }
            }
        }
    }

    private double remainingSeconds(int left, int done, double elapsed) {
        double perCase = config.harness().caseSeconds();
        if (done > 0) {
            perCase = Math.max(perCase, elapsed / done);
        }
        return left * perCase;
    }

    private static String summary(CaseResult r) {
        if (r.bytes() < 0) {
            return "FAILED: " + r.error();
        }
        String s = String.format(Locale.ROOT, "%d B (gzip %d B), encode %s, decode %s", r.bytes(), r.gzipBytes(),
                Units.time(r.encodeNs().median()), Units.time(r.decodeNs().median()));
        return r.ok() ? s : s + "  FAILED: " + r.error();
    }

    private record PlannedCase(String codec, CodecWorkload workload, Serializer serializer) {}
}
