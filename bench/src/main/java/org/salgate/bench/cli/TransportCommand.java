package org.salgate.bench.cli;

import java.util.List;
import java.util.Set;

import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import org.salgate.bench.run.RunConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Transport level: the echo/stream service on each transport (paper Tables I-IV, Figure 2). */
@Command(name = "transport", mixinStandardHelpOptions = true,
        description = "Benchmark the transports alone (RTT, TP, streaming, resources) and score them (Tables I-IV).")
final class TransportCommand extends RunCommand {

    @Option(names = "--methods", split = ",", paramLabel = "METHOD", defaultValue = "rtt,tp,stream,resource",
            description = "Test methods: rtt, tp, stream, resource (default: ${DEFAULT-VALUE}).")
    List<String> methodNames;

    @Mixin
    TransportRunOptions transportOptions = new TransportRunOptions();

    @Override
    void configureLevel(RunConfig.Builder b) {
        TransportRunOptions o = transportOptions;
        b.limits(!o.noLimits);
        if (o.rttCalls != null) {
            b.rttCalls(o.rttCalls);
        }
        if (o.tpDuration != null) {
            b.tpDuration(o.tpDuration);
        }
        if (o.streamDuration != null) {
            b.streamDuration(o.streamDuration);
        }
        if (o.resourceDuration != null) {
            b.resourceDuration(o.resourceDuration);
        }
        if (o.rate != null) {
            b.ratePerClient(o.rate);
        }
    }

    @Override
    Level level() {
        return Level.TRANSPORT;
    }

    @Override
    List<String> defaultTransports() {
        return List.of("netty", "mina", "xsocket", "socket", "http", "grpc");
    }

    @Override
    Set<Method> methods() {
        return parseMethods(methodNames, Level.TRANSPORT);
    }
}
