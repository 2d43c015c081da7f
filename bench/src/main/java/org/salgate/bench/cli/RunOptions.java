package org.salgate.bench.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

import picocli.CommandLine.Option;

/** The options of a measuring run shared by {@code transport} and {@code agent}; each has its own besides. */
final class RunOptions {

    @Option(names = "--transports", split = ",", paramLabel = "NAME",
            description = "Transports to compare with the baseline (default: netty,mina,xsocket,socket,http,grpc; agent: netty).")
    List<String> transports;

    @Option(names = "--baseline", paramLabel = "NAME", defaultValue = "rmi",
            description = "The transport that is 100 %% (default: ${DEFAULT-VALUE}).")
    String baseline;

    @Option(names = "--clients", split = ",", paramLabel = "N",
            description = "Client counts to sweep (default: 1,10,30,70,100; any list, such as 1,100,300,1000).")
    List<Integer> clients;

    @Option(names = "--reps", paramLabel = "N", description = "Repetitions of every cell (default: 3; --quick: 1).")
    Integer reps;

    @Option(names = "--warmup", paramLabel = "DURATION",
            description = "Warm-up of each fresh server before its first cell (default: 10s; --quick: 2s).")
    Duration warmup;

    @Option(names = "--quick", description = "Smoke-test profile: about 2 s per cell, 1 repetition.")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: bench-results/<timestamp>).")
    Path out;

    @Option(names = "--rtt-warmup-calls", paramLabel = "N", description = "Warm-up calls per client before each RTT cell (default: 200).")
    Integer rttWarmupCalls;

    @Option(names = "--tls", description = "Run the cells over TLS only, the same as --security tls.")
    boolean tls;

    @Option(names = "--security", split = ",", paramLabel = "plain|tls",
            description = "How each transport's cells connect (default: plain). With plain,tls every transport runs"
                    + " both ways in the same run, its TLS cells named <transport>+tls; the plain cells are scored"
                    + " against the baseline and the report adds a cost-of-TLS table. TLS servers serve a"
                    + " self-signed certificate made for the run, which the clients pin (the socket ceiling stays plain).")
    List<String> security;

    @Option(names = "--interleave",
            description = "Start every server at once and take the repetitions in turns across them (repetition 1 of"
                    + " every transport, then repetition 2, ...); the report then sets each repetition against the"
                    + " baseline's of the same round (paired ratios). Default: one server at a time, all its"
                    + " repetitions in a row.")
    boolean interleave;

    static Path defaultOut() {
        return Path.of("bench-results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }
}
