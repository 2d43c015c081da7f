package org.salgate.bench.cli;

import java.util.List;
import java.util.Set;

import org.salgate.bench.run.Level;
import org.salgate.bench.run.Method;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Transport level: the echo/stream service on each transport (paper Tables I-IV, Figure 2). */
@Command(name = "transport", mixinStandardHelpOptions = true,
        description = "Benchmark the transports alone (RTT, TP, streaming, resources) and score them (Tables I-IV).")
final class TransportCommand extends RunCommand {

    @Option(names = "--methods", split = ",", paramLabel = "METHOD", defaultValue = "rtt,tp,stream,resource",
            description = "Test methods: rtt, tp, stream, resource (default: ${DEFAULT-VALUE}).")
    List<String> methodNames;

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
