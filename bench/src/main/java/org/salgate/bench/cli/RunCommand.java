package org.salgate.bench.cli;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.salgate.bench.report.MachineInfo;
import org.salgate.bench.report.ReportWriter;
import org.salgate.bench.report.ScoreTables;
import org.salgate.bench.run.BenchRunner;
import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.RunConfig;
import org.salgate.bench.run.RunOutcome;
import org.salgate.bench.run.RunScorer;
import org.salgate.bench.run.Security;
import org.salgate.bench.sample.ProcStat;
import org.salgate.bench.score.ScoreCard;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

/** A measuring run at one level: build the configuration, run, write the reports, print the scores. */
abstract class RunCommand extends BaseCommand {

    @Mixin
    RunOptions options = new RunOptions();

    abstract Level level();

    abstract List<String> defaultTransports();

    abstract Set<Method> methods();

    /** Applies the options only this level has. */
    abstract void configureLevel(RunConfig.Builder b);

    @Override
    int execute() throws Exception {
        RunConfig config = checkedConfig();
        if (!ProcStat.supported()) {
            throw new IllegalStateException("the bench samples the server through Linux /proc, which this machine lacks");
        }
        RunOutcome outcome = new BenchRunner(config, System.out).run();
        Path md = ReportWriter.write(outcome, MachineInfo.current(), true);
        List<ScoreCard> scores = RunScorer.score(outcome.results(), level(), config.scoredBaseline());
        out().println();
        if (scores.isEmpty()) {
            out().println("Only the baseline was measured, so there are no scores; name others with --transports.");
        } else {
            out().println(level() == Level.TRANSPORT ? ScoreTables.transportLevel(scores, config.scoredBaseline())
                    : ScoreTables.agentLevel(scores, config.scoredBaseline()));
        }
        out().println("Report: " + md.toAbsolutePath());
        out().flush();
        long failed = outcome.results().all().stream().filter(r -> r.error() != null).count();
        if (failed > 0) {
            out().println(failed + " cell(s) had errors; see the report's last section.");
            return EXIT_CELLS_FAILED;
        }
        return EXIT_OK;
    }

    /**
     * The configuration, or a {@link ParameterException} (exit code 2, bad usage) for option values
     * that do not make one: a client count of 0, an unknown transport or method...
     */
    RunConfig checkedConfig() {
        try {
            RunConfig config = config();
            var available = org.salgate.transport.Transports.available().keySet();
            for (String t : config.transportsWithBaseline()) {
                if (!available.contains(t)) {
                    throw new IllegalArgumentException("unknown transport '" + t + "'; available: "
                            + String.join(", ", available));
                }
            }
            return config;
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    RunConfig config() {
        RunConfig.Builder b = RunConfig.builder();
        if (options.quick) {
            b.quick();
        }
        b.level(level()).methods(methods())
                .transports(options.transports != null ? options.transports : defaultTransports())
                .baseline(options.baseline)
                .out(options.out != null ? options.out : RunOptions.defaultOut());
        if (options.tls && options.security != null) {
            throw new IllegalArgumentException("--tls is --security tls; give one of them");
        }
        if (options.security != null) {
            b.security(options.security.stream().map(Security::parse).toList());
        } else {
            b.tls(options.tls);
        }
        if (options.clients != null) {
            b.clients(options.clients);
        }
        if (options.reps != null) {
            b.reps(options.reps);
        }
        if (options.warmup != null) {
            b.serverWarmup(options.warmup);
        }
        if (options.rttWarmupCalls != null) {
            b.rttWarmupCalls(options.rttWarmupCalls);
        }
        b.interleave(options.interleave);
        configureLevel(b);
        return b.build();
    }

    /** Parses a method list such as {@code rtt,tp,stream,resource}. */
    static Set<Method> parseMethods(List<String> names, Level level) {
        Set<Method> m = EnumSet.noneOf(Method.class);
        for (String n : names) {
            switch (n.trim().toLowerCase(Locale.ROOT)) {
                case "rtt" -> m.add(Method.RTT);
                case "tp" -> m.add(Method.TP);
                case "stream", "streaming" -> m.add(Method.STREAM);
                case "resource", "resources" -> {
                    m.add(Method.RESOURCE_SYNC);
                    m.add(Method.RESOURCE_ASYNC);
                }
                case "resource_sync" -> m.add(Method.RESOURCE_SYNC);
                case "resource_async" -> m.add(Method.RESOURCE_ASYNC);
                case "sync" -> m.add(Method.AGENT_SYNC);
                case "async" -> m.add(Method.AGENT_ASYNC);
                default -> throw new IllegalArgumentException("unknown method '" + n + "'; use "
                        + (level == Level.TRANSPORT ? "rtt, tp, stream, resource" : "sync, async"));
            }
        }
        boolean agentMethods = m.stream().anyMatch(x -> x == Method.AGENT_SYNC || x == Method.AGENT_ASYNC);
        if (agentMethods != (level == Level.AGENT) || m.isEmpty()) {
            throw new IllegalArgumentException("methods " + names + " do not fit this level; use "
                    + (level == Level.TRANSPORT ? "rtt, tp, stream, resource" : "sync, async"));
        }
        return m;
    }
}
