package org.salgate.bench.score;

/**
 * One transport's scores against the baseline, as the paper's tables show them.
 *
 * @param name the transport
 * @param rtt the RTT ratio (transport level only; NaN at agent level)
 * @param tp the TP ratio (transport level only; NaN at agent level)
 * @param tr transfer rate (Table I / V)
 * @param ru resource usage (Table II / VI)
 * @param sc scalability (Table III / VII)
 * @param fin the final weighting (Table IV / VIII)
 */
public record ScoreCard(String name, double rtt, double tp, TransferRateScore tr, ResourceScore ru,
                        ScalabilityScore sc, FinalScore fin) {

    /** The paper's rows recomputed: Tables I-IV with their RTT and TP columns. */
    public static java.util.List<ScoreCard> paperTransportLevel() {
        var results = PaperReproduction.transportLevel();
        var list = new java.util.ArrayList<ScoreCard>();
        for (int i = 0; i < results.size(); i++) {
            var r = results.get(i);
            double[] rttTp = PaperData.TABLE_I_RTT_TP.get(i);
            list.add(new ScoreCard(r.row().name(), rttTp[0], rttTp[1], r.row().tr(), r.row().ru(), r.row().sc(),
                    r.finalScore()));
        }
        return list;
    }

    /** The paper's Netty-in-SAL row recomputed: Tables V-VIII. */
    public static ScoreCard paperAgentLevel() {
        var r = PaperReproduction.agentLevel();
        return new ScoreCard(r.row().name(), Double.NaN, Double.NaN, r.row().tr(), r.row().ru(), r.row().sc(),
                r.finalScore());
    }
}
