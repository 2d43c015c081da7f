package org.salgate.bench.cli;

import java.time.Duration;
import java.util.List;
import org.salgate.bench.mqtt.MqttBench;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Readings per second and latency through the MQTT bridge, against a Paho client publishing straight to the broker. */
@Command(name = "mqtt", mixinStandardHelpOptions = true,
        description = "Readings per second and end-to-end latency from N sensors through the MQTT bridge to a"
                + " subscriber on the same broker, at each QoS, against one Paho client publishing the same readings"
                + " straight to the broker (the ceiling). Needs a running broker (--broker).")
final class MqttCommand extends BaseCommand {

    @Option(names = "--broker", required = true, paramLabel = "URL", description = "The broker, e.g. tcp://127.0.0.1:1883.")
    String broker;

    @Option(names = "--sensors", defaultValue = "10", paramLabel = "N", description = "Dummy sensors streamed (default: ${DEFAULT-VALUE}).")
    int sensors;

    @Option(names = "--interval-ms", defaultValue = "1", paramLabel = "MS",
            description = "Stream interval of each sensor (default: ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(names = "--qos", split = ",", defaultValue = "0,1", paramLabel = "Q", description = "QoS levels (default: ${DEFAULT-VALUE}).")
    List<Integer> qos;

    @Option(names = "--format", split = ",", defaultValue = "json", paramLabel = "F",
            description = "Payload formats: json, influx, sparkplug (default: ${DEFAULT-VALUE}; Sparkplug at QoS 0 only).")
    List<String> formats;

    @Option(names = "--warmup", defaultValue = "3s", paramLabel = "DURATION", description = "Warm-up per row (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--measure", defaultValue = "10s", paramLabel = "DURATION", description = "Measured span per row (default: ${DEFAULT-VALUE}).")
    Duration measure;

    @Override
    int execute() throws Exception {
        if (sensors <= 0 || intervalMs <= 0 || qos.stream().anyMatch(q -> q < 0 || q > 2)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--sensors and --interval-ms must be positive and --qos 0, 1 or 2");
        }
        List<MqttBench.Format> parsed;
        try {
            parsed = formats.stream().map(MqttBench.Format::parse).toList();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--format " + e.getMessage());
        }
        MqttBench.Config config = new MqttBench.Config(broker, sensors, intervalMs, warmup, measure, qos, parsed);
        List<MqttBench.Row> rows = new MqttBench(config, System.out).run();
        out().println();
        out().print(MqttBench.table(rows));
        out().flush();
        return EXIT_OK;
    }
}
