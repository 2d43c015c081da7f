package org.salgate.bench.cli;

import java.time.Duration;

import picocli.CommandLine.Option;

/** The options only the transport level has. */
final class TransportRunOptions {

    @Option(names = "--rtt-calls", paramLabel = "N", description = "RTT calls per client (default: 1000).")
    Integer rttCalls;

    @Option(names = "--tp-duration", paramLabel = "DURATION", description = "TP cell length (default: 60s).")
    Duration tpDuration;

    @Option(names = "--stream-duration", paramLabel = "DURATION", description = "Streaming cell length (default: 30s).")
    Duration streamDuration;

    @Option(names = "--resource-duration", paramLabel = "DURATION", description = "Resource cell length (default: 30s).")
    Duration resourceDuration;

    @Option(names = "--rate", paramLabel = "CALLS_PER_S",
            description = "Open-loop RTT: each client calls at this fixed rate; latencies are measured from each call's "
                    + "intended start (coordinated-omission corrected).")
    Double rate;

    @Option(names = "--no-limits", description = "Skip the framework-free socket ceiling (transport level).")
    boolean noLimits;
}
