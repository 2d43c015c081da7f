package org.salgate.bench.cli;

import java.util.List;
import java.util.Locale;

import org.salgate.bench.report.ScoreTables;
import org.salgate.bench.score.PaperReproduction;
import org.salgate.bench.score.ScoreCard;
import picocli.CommandLine.Command;

/** Feeds the paper's printed inputs to the scorer, prints Tables I-IV and V-VIII, and lists the paper's inconsistencies. */
@Command(name = "paper", mixinStandardHelpOptions = true,
        description = "Recompute the SAL paper's Tables IV and VIII from its printed inputs and list where its arithmetic does not add up.")
final class PaperCommand extends BaseCommand {

    @Override
    int execute() {
        out().println("## The SAL paper's scores, recomputed (RMI = 100 %)\n");
        out().println("Inputs: Tables I, II, V, VI ratio columns; Tables III and VII printed totals for scalability.\n");
        out().println(ScoreTables.transportLevel(ScoreCard.paperTransportLevel(), "RMI"));
        out().println(ScoreTables.agentLevel(List.of(ScoreCard.paperAgentLevel()), "RMI"));
        out().println("## Where the paper's printed numbers do not add up\n");
        for (PaperReproduction.Check c : PaperReproduction.inconsistencies()) {
            out().println("- " + c.describe());
        }
        var agent = PaperReproduction.agentLevel();
        double fromPrintedTotals = 0.5 * agent.row().printedTrTotal() + 0.2 * agent.row().printedRuTotal()
                + 0.3 * agent.row().printedScTotal();
        out().println(String.format(Locale.ROOT, "%nRounding note: Table VIII's %.2f %% comes from the unrounded Table V "
                + "total (0.3 x 97.30 + 0.7 x 240.45 = %.3f); from the printed totals alone it is %.2f %%.",
                agent.row().printedFinal(), agent.row().tr().total(), fromPrintedTotals));
        out().println("MINA's Table III total (90.15 %) matches its weighted columns, so its printed resource part "
                + "13.64 % is a typo for 14.64 %; Table VII's parts 140.20 % and 29.16 % sum to its total but are not "
                + "5/7 and 2/7 of its weighted columns, so the final score uses its printed total; Table VIII's printed "
                + "transfer-rate part 97.75 % is a typo for 98.75 % (half of Table V's 197.50 %), which its total needs.");
        out().flush();
        return EXIT_OK;
    }
}
