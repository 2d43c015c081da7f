package org.salgate.bench.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.salgate.bench.score.FinalScore;
import org.salgate.bench.score.MethodRatio;
import org.salgate.bench.score.ResourceScore;
import org.salgate.bench.score.ScalabilityScore;
import org.salgate.bench.score.ScoreCard;
import org.salgate.bench.score.TransferRateScore;

/**
 * Scores a run's medians against the baseline, the paper's way: per panel a {@link MethodRatio}
 * (types summed per client count, ratios averaged over counts, scalability from the smallest to
 * the largest count), then the weighted tables.
 */
public final class RunScorer {

    private RunScorer() {}

    /** The ratio of {@code transport} to {@code baseline} for one panel. */
    public static MethodRatio ratio(ResultSet results, Level level, Panel panel, String transport, String baseline) {
        var t = results.medians(level, transport, panel.method(), panel.metric());
        var b = results.medians(level, baseline, panel.method(), panel.metric());
        Map<Integer, List<Double>> tv = new TreeMap<>();
        Map<Integer, List<Double>> bv = new TreeMap<>();
        for (var e : t.entrySet()) {
            Map<String, Double> base = b.get(e.getKey());
            if (base == null) {
                continue;
            }
            List<Double> tl = new ArrayList<>();
            List<Double> bl = new ArrayList<>();
            for (var type : e.getValue().entrySet()) {
                if (base.containsKey(type.getKey())) {
                    tl.add(type.getValue());
                    bl.add(base.get(type.getKey()));
                }
            }
            if (!tl.isEmpty()) {
                tv.put(e.getKey(), tl);
                bv.put(e.getKey(), bl);
            }
        }
        return MethodRatio.of(tv, bv, panel.direction());
    }

    /** Every panel's ratio for every transport except the baseline: panel id, then transport. */
    public static Map<Panel, Map<String, MethodRatio>> ratios(ResultSet results, Level level, String baseline) {
        Map<Panel, Map<String, MethodRatio>> out = new LinkedHashMap<>();
        for (Panel p : Panel.of(level)) {
            Map<String, MethodRatio> byTransport = new LinkedHashMap<>();
            for (String t : results.transports(level)) {
                if (scored(t, baseline)) {
                    byTransport.put(t, ratio(results, level, p, t, baseline));
                }
            }
            out.put(p, byTransport);
        }
        return out;
    }

    /** The paper's Tables I-IV (or V-VIII) for every transport except the baseline. */
    public static List<ScoreCard> score(ResultSet results, Level level, String baseline) {
        Map<Panel, Map<String, MethodRatio>> r = ratios(results, level, baseline);
        List<Panel> panels = Panel.of(level);
        List<ScoreCard> cards = new ArrayList<>();
        for (String t : results.transports(level)) {
            if (!scored(t, baseline)) {
                continue;
            }
            cards.add(level == Level.TRANSPORT ? transportCard(t, r, panels) : agentCard(t, r, panels));
        }
        return cards;
    }

    /**
     * Whether a transport's cells are scored against the baseline: not the baseline itself nor the
     * socket ceiling, and only cells of the baseline's security (a run that measures plain and TLS
     * scores its plain cells; the TLS cells are set against them in the cost-of-TLS table).
     */
    static boolean scored(String transport, String baseline) {
        return !transport.equals(baseline) && !transport.equals(CellKey.RAW)
                && Security.of(transport) == Security.of(baseline);
    }

    private static ScoreCard transportCard(String t, Map<Panel, Map<String, MethodRatio>> r, List<Panel> p) {
        MethodRatio rtt = r.get(p.get(0)).get(t), tp = r.get(p.get(1)).get(t), st = r.get(p.get(2)).get(t);
        MethodRatio cpuS = r.get(p.get(3)).get(t), memS = r.get(p.get(4)).get(t);
        MethodRatio cpuA = r.get(p.get(5)).get(t), memA = r.get(p.get(6)).get(t);
        TransferRateScore tr = TransferRateScore.ofMethods(rtt.mean(), tp.mean(), st.mean());
        ResourceScore ru = new ResourceScore(cpuS.mean(), memS.mean(), cpuA.mean(), memA.mean());
        ScalabilityScore sc = new ScalabilityScore(half(rtt.scalability(), tp.scalability()), st.scalability(),
                half(cpuS.scalability(), memS.scalability()), half(cpuA.scalability(), memA.scalability()));
        return new ScoreCard(t, rtt.mean(), tp.mean(), tr, ru, sc, FinalScore.of(tr, ru, sc));
    }

    private static ScoreCard agentCard(String t, Map<Panel, Map<String, MethodRatio>> r, List<Panel> p) {
        MethodRatio sync = r.get(p.get(0)).get(t), async = r.get(p.get(1)).get(t);
        MethodRatio cpuS = r.get(p.get(2)).get(t), memS = r.get(p.get(3)).get(t);
        MethodRatio cpuA = r.get(p.get(4)).get(t), memA = r.get(p.get(5)).get(t);
        TransferRateScore tr = new TransferRateScore(sync.mean(), async.mean());
        ResourceScore ru = new ResourceScore(cpuS.mean(), memS.mean(), cpuA.mean(), memA.mean());
        ScalabilityScore sc = new ScalabilityScore(sync.scalability(), async.scalability(),
                half(cpuS.scalability(), memS.scalability()), half(cpuA.scalability(), memA.scalability()));
        return new ScoreCard(t, Double.NaN, Double.NaN, tr, ru, sc, FinalScore.of(tr, ru, sc));
    }

    /** Within the synchronous part RTT and TP (or CPU and memory) weigh half each, as in Tables I and II. */
    private static double half(double a, double b) {
        return 0.5 * a + 0.5 * b;
    }
}
