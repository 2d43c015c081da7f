package org.salgate.bench.score;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

class PaperScoringTest {

    private static String r2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    @Test
    void tableIWeightedTransferRateMatchesForNetty() {
        TransferRateScore tr = TransferRateScore.ofMethods(92.05, 93.94, 133.90);
        assertEquals("27.90", r2(tr.syncWeighted()));
        assertEquals("93.73", r2(tr.asyncWeighted()));
        assertEquals("121.63", r2(tr.total()));
    }

    @Test
    void tableIIWeightedResourceUsageMatchesForNetty() {
        ResourceScore ru = new ResourceScore(105.16, 118.11, 50.33, 110.10);
        assertEquals("33.49", r2(ru.syncWeighted()));
        assertEquals("56.15", r2(ru.asyncWeighted()));
        assertEquals("89.64", r2(ru.total()));
    }

    @Test
    void tableIIIScalabilityUsesFiveAndTwoSevenths() {
        ScalabilityScore sc = ScalabilityScore.ofWeighted(36.21, 89.46, 36.65, 9.19);
        // the paper weighted unrounded ratios; from its rounded columns 5/7 x 125.67 = 89.764
        assertEquals(89.77, sc.trPart(), PaperReproduction.ROUNDING);
        assertEquals("13.10", r2(sc.ruPart()));
        assertEquals("102.86", r2(sc.total()));
    }

    @Test
    void tableIVFinalScoresReproduceThePaper() {
        List<String> finals = PaperReproduction.transportLevel().stream()
                .map(r -> r.row().name() + "=" + r2(r.finalScore().total())).toList();
        assertEquals(List.of("MINA=101.90", "Netty=109.60", "xSocket=103.37"), finals);
    }

    @Test
    void tableIVComponentsReproduceThePaper() {
        for (var r : PaperReproduction.transportLevel()) {
            // within one unit of the last printed digit: 0.3 x 105.85 = 31.755 is printed 31.76
            assertEquals(r.row().printedFinalTr(), r.finalScore().trWeighted(), PaperReproduction.ROUNDING, r.row().name());
            assertEquals(r.row().printedFinalRu(), r.finalScore().ruWeighted(), PaperReproduction.ROUNDING, r.row().name());
            assertEquals(r.row().printedFinalSc(), r.finalScore().scWeighted(), PaperReproduction.ROUNDING, r.row().name());
        }
    }

    @Test
    void tableVIIIFinalScoreReproducesThePaper() {
        assertEquals("168.08", r2(PaperReproduction.agentLevel().finalScore().total()));
    }

    @Test
    void minaTableIIIResourcePartIsReportedAsInconsistent() {
        var mina = PaperReproduction.transportLevel().get(0);
        var bad = mina.inconsistencies().stream().filter(c -> c.table().equals("III")).toList();
        assertFalse(bad.isEmpty());
        var ruPart = bad.stream().filter(c -> c.column().startsWith("resource usage")).findFirst().orElseThrow();
        assertEquals("13.64", r2(ruPart.printed()));
        assertEquals("14.64", r2(ruPart.computed()));
        // the printed total agrees with the formula, so only the printed column is wrong
        assertTrue(mina.checks().stream().anyMatch(c -> c.table().equals("III")
                && c.column().startsWith("total (from its weighted") && c.consistent()));
    }

    @Test
    void tableVIIInternalColumnsAreReportedAsInconsistent() {
        var bad = PaperReproduction.agentLevel().inconsistencies().stream()
                .filter(c -> c.table().equals("VII")).map(Check -> Check.column()).collect(Collectors.toSet());
        assertTrue(bad.contains("transfer rate (5/7 of the weighted TR columns)"), bad.toString());
        assertTrue(bad.contains("resource usage (2/7 of the weighted RU columns)"), bad.toString());
        assertTrue(bad.contains("total (from its weighted columns)"), bad.toString());
    }

    @Test
    void onlyTheKnownRowsOfThePaperAreInconsistent() {
        var rows = PaperReproduction.inconsistencies().stream()
                .map(c -> c.table() + "/" + c.row()).collect(Collectors.toSet());
        assertEquals(java.util.Set.of("III/MINA", "VII/Netty", "VIII/Netty"), rows);
    }

    @Test
    void paperTablesRenderWithTheFinalScores() {
        String md = org.salgate.bench.report.ScoreTables.transportLevel(ScoreCard.paperTransportLevel(), "RMI");
        assertTrue(md.contains("| Netty | 30.40 %") || md.contains("109.60 %"), md);
        assertTrue(md.contains("101.90 %") && md.contains("103.37 %"), md);
        String agent = org.salgate.bench.report.ScoreTables.agentLevel(List.of(ScoreCard.paperAgentLevel()), "RMI");
        assertTrue(agent.contains("168.08 %"), agent);
    }
}
