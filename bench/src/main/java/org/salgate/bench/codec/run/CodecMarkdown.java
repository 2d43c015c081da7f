package org.salgate.bench.codec.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.salgate.bench.report.MachineInfo;

/** The codec report as markdown: sizes, times and allocation as workload-by-codec tables. */
final class CodecMarkdown {

    static final String HARNESS_NOTE = "a JMH-equivalent harness in the bench JVM (not JMH itself): per case a round-trip "
            + "check, a warm-up alternating encode and decode, then timed rounds of back-to-back encodes and of "
            + "back-to-back decodes on one thread, results fed to a blackhole";
    static final String SHARED_NOTE = "Measured on one thread of the bench JVM, on a machine whose cores "
            + "are shared with anything else running on it; compare codecs within one run, not across runs.";

    private CodecMarkdown() {}

    static String render(CodecOutcome run, MachineInfo machine) {
        StringBuilder b = new StringBuilder("# Codec bench\n\n");
        HarnessConfig h = run.config().harness();
        b.append("Command: `").append(run.config().commandLine()).append("`\n\n");
        b.append("Machine: ").append(machine.describe()).append(".\n\n").append(SHARED_NOTE).append("\n\n");
        b.append(String.format(Locale.ROOT, "Harness: %s. Warm-up %d ms per case, %d rounds of %d ms for encode and "
                + "for decode; times are the median of the rounds per operation, with min-max. Seed %d. Started %s, "
                + "finished %s.%n%n", HARNESS_NOTE, h.warmup().toMillis(), h.rounds(), h.measure().toMillis(),
                run.config().seed(), run.started(), run.finished()));
        b.append("Workloads:\n\n");
        for (CodecWorkload w : run.workloads()) {
            b.append("- `").append(w.name()).append("`: ").append(w.detail())
                    .append(w.wire() ? " (wire codecs)" : " (payload formats)").append('\n');
        }
        b.append('\n');
        List<String> codecs = run.config().codecs();
        table(b, "Encoded size (bytes)", run, r -> Units.bytes(r.bytes()));
        ratioTable(b, run, codecs);
        table(b, "Gzip'd size (bytes, java.util.zip default level)", run, r -> Units.bytes(r.gzipBytes()));
        studyRatios(b, run);
        table(b, "Encode time per message, median (min-max)", run,
                r -> timed(r, r.encodeNs()));
        table(b, "Decode time per message, median (min-max)", run,
                r -> timed(r, r.decodeNs()));
        if (!run.allocationSupported()) {
            b.append("Allocation: n/a, this JVM does not count allocated bytes per thread.\n\n");
        }
        table(b, "Allocated per encode (bytes)", run, r -> Units.alloc(r.encodeAllocBytes()));
        table(b, "Allocated per decode (bytes)", run, r -> Units.alloc(r.decodeAllocBytes()));
        failures(b, run);
        return b.toString();
    }

    private static String timed(CaseResult r, Spread s) {
        if (Double.isNaN(s.median())) {
            return "-";
        }
        return Units.time(s.median()) + " (" + Units.time(s.min()) + "-" + Units.time(s.max()) + ")";
    }

    private static void table(StringBuilder b, String title, CodecOutcome run, Function<CaseResult, String> cell) {
        List<String> codecs = run.config().codecs();
        b.append("## ").append(title).append("\n\n| workload |");
        codecs.forEach(c -> b.append(' ').append(c).append(" |"));
        b.append("\n|---|");
        codecs.forEach(c -> b.append("---:|"));
        b.append('\n');
        for (CodecWorkload w : run.workloads()) {
            b.append("| ").append(w.name()).append(" |");
            for (String c : codecs) {
                CaseResult r = run.find(c, w.name());
                String v = r == null ? "" : cell.apply(r) + (r.ok() ? "" : " FAILED");
                b.append(' ').append(v).append(" |");
            }
            b.append('\n');
        }
        b.append('\n');
    }

    private static void ratioTable(StringBuilder b, CodecOutcome run, List<String> codecs) {
        b.append("Size as a ratio to protobuf (protobuf = 1.00):\n\n| workload |");
        codecs.forEach(c -> b.append(' ').append(c).append(" |"));
        b.append("\n|---|");
        codecs.forEach(c -> b.append("---:|"));
        b.append('\n');
        for (CodecWorkload w : run.workloads()) {
            CaseResult pb = run.find("protobuf", w.name());
            b.append("| ").append(w.name()).append(" / protobuf |");
            for (String c : codecs) {
                CaseResult r = run.find(c, w.name());
                b.append(' ').append(r == null || pb == null || pb.bytes() <= 0 || r.bytes() < 0 ? "-"
                        : Units.ratio(r.bytes() / (double) pb.bytes())).append(" |");
            }
            b.append('\n');
        }
        b.append('\n');
    }

    private static void studyRatios(StringBuilder b, CodecOutcome run) {
        List<String> lines = new ArrayList<>();
        for (CodecWorkload w : run.workloads()) {
            if (!w.name().startsWith("poi-")) {
                continue;
            }
            int i = MobileStudyTable1.indexOf(Integer.parseInt(w.name().substring(4)));
            String study = i < 0 ? "-" : ratios(MobileStudyTable1.XML_KB[i], MobileStudyTable1.JSON_KB[i],
                    MobileStudyTable1.PROTOBUF_KB[i]);
            lines.add("| " + w.name() + " | " + ours(run, w.name()) + " | " + study + " |");
        }
        if (lines.isEmpty()) {
            return;
        }
        b.append("## Size ratio XML : JSON : protobuf (protobuf = 1), beside the mobile study's Table 1\n\n");
        b.append("| POI set | this run | mobile study |\n|---|---|---|\n");
        lines.forEach(l -> b.append(l).append('\n'));
        b.append("\nA `-` marks a codec this run did not measure.\n\n");
    }

    private static String ours(CodecOutcome run, String workload) {
        long xml = size(run.find("xml", workload));
        long json = size(run.find("json", workload));
        long pb = size(run.find("protobuf", workload));
        if (pb <= 0) {
            return (xml > 0 ? "xml " + Units.bytes(xml) + " B" : "xml -") + " : "
                    + (json > 0 ? "json " + Units.bytes(json) + " B" : "json -") + " : protobuf - (no ratio without protobuf)";
        }
        return (xml > 0 ? Units.ratio(xml / (double) pb) : "-") + " : " + (json > 0 ? Units.ratio(json / (double) pb) : "-")
                + " : 1";
    }

    private static long size(CaseResult r) {
        return r == null || !r.ok() ? -1 : r.bytes();
    }

    private static String ratios(double xml, double json, double pb) {
        return Units.ratio(xml / pb) + " : " + Units.ratio(json / pb) + " : 1";
    }

    private static void failures(StringBuilder b, CodecOutcome run) {
        b.append("## Failed and skipped cases\n\n");
        List<CaseResult> failed = run.failures();
        if (failed.isEmpty()) {
            b.append("No case failed: every codec gave every value back equal (decode(encode(x)) equals x).\n");
        } else {
            for (CaseResult r : failed) {
                b.append("- FAILED ").append(r.codec()).append(" x ").append(r.workload()).append(": ")
                        .append(r.error()).append('\n');
            }
        }
        for (String s : run.skipped()) {
            b.append("- skipped ").append(s).append('\n');
        }
    }
}
