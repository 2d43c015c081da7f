package org.salgate.transport.tck.faulty;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/**
 * Sensors with the commands {@code read} (always throws), {@code flaky} (throws on every second
 * call), {@code ok} (always 7.0) and {@code slow} (3.0, streamable only every 100..10000 ms).
 */
final class FaultyProtocol implements SensorProtocol {

    static final List<Output> OUTPUTS = List.of(Output.quantity("value", "urn:salgate:def:tck:faulty", "1"));
    static final SamplingBounds SLOW_BOUNDS = new SamplingBounds(100, 10_000);
    static final List<CommandDescription> COMMANDS = List.of(
            CommandDescription.builder("read").shortDescription("always fails").streaming(SamplingBounds.ANY).build(),
            CommandDescription.builder("flaky").shortDescription("fails every second call")
                    .streaming(SamplingBounds.ANY).build(),
            CommandDescription.builder("ok").shortDescription("always 7").streaming(SamplingBounds.ANY).build(),
            CommandDescription.builder("slow").shortDescription("3, at most every 100 ms").streaming(SLOW_BOUNDS)
                    .build());

    private final List<SensorDescription> sensors;
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();

    FaultyProtocol(String name, String prefix, int count) {
        List<SensorDescription> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(new SensorDescription(prefix + i, "a sensor that fails on purpose", name, "", OUTPUTS,
                    SamplingBounds.ANY));
        }
        sensors = List.copyOf(list);
    }

    @Override
    public List<SensorDescription> sensors() {
        return sensors;
    }

    @Override
    public List<CommandDescription> commands(String sensorId) {
        return COMMANDS;
    }

    @Override
    public Value execute(String sensorId, String commandId, Map<String, String> arguments) {
        switch (commandId) {
            case "read":
                throw new IllegalStateException("simulated plugin failure");
            case "flaky":
                long n = calls.computeIfAbsent(sensorId, k -> new AtomicLong()).getAndIncrement();
                if (n % 2 == 1) {
                    throw new IllegalStateException("simulated intermittent failure");
                }
                return Value.of(1.0);
            case "ok":
                return Value.of(7.0);
            case "slow":
                return Value.of(3.0);
            default:
                throw new IllegalArgumentException("no command " + commandId);
        }
    }

    @Override
    public void close() {
    }
}
