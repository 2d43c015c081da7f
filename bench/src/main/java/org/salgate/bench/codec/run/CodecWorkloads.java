package org.salgate.bench.codec.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.salgate.bench.codec.study.Person;
import org.salgate.bench.codec.study.Poi;
import org.salgate.bench.codec.study.Pois;
import org.salgate.bench.codec.study.StudyData;
import org.salgate.model.Reading;
import org.salgate.wire.StreamData;
import org.salgate.model.Value;

/** The codec bench's workloads by name: the studies' objects and two real salgate messages. */
public final class CodecWorkloads {

    /** Every workload, in report order. */
    public static final List<String> NAMES = List.of("poi-1", "poi-250", "poi-461", "poi-1884", "person", "reading",
            "sensor-list");

    /** The few a {@code --quick} run uses when none are named. */
    public static final List<String> QUICK = List.of("poi-1", "poi-250", "person", "reading", "sensor-list");

    /** 2023-11-14, a fixed epoch for the dummy reading's timestamp, in microseconds. */
    private static final long READING_EPOCH_MICROS = 1_700_000_000_000_000L;

    private CodecWorkloads() {}

    /**
     * Checks that every name is a workload.
     *
     * @throws IllegalArgumentException naming the workloads there are
     */
    public static void check(List<String> names) {
        for (String n : names) {
            if (!NAMES.contains(n)) {
                throw new IllegalArgumentException("unknown workload '" + n + "'; available: " + String.join(", ", NAMES));
            }
        }
    }

    /** Builds the named workloads; {@code sensor-list} starts an agent to ask it for its sensors. */
    public static List<CodecWorkload> build(List<String> names, long seed) throws IOException {
        check(names);
        List<CodecWorkload> out = new ArrayList<>();
        for (String n : names) {
            out.add(build(n, seed));
        }
        return out;
    }

    static CodecWorkload build(String name, long seed) throws IOException {
        if (name.startsWith("poi-")) {
            int count = Integer.parseInt(name.substring(4));
            Pois pois = StudyData.pois(count, seed);
            long chars = pois.items().stream().mapToLong(Poi::dataChars).sum();
            return new CodecWorkload(name, count + (count == 1 ? " point" : " points") + " of interest, 13 text fields and "
                    + Math.round(chars / (double) count) + " characters of data each", pois, false);
        }
        return switch (name) {
            case "person" -> {
                Person p = StudyData.person(seed);
                yield new CodecWorkload(name, "a recursive Person graph of " + p.size() + " persons", p, false);
            }
            case "reading" -> new CodecWorkload(name, "a StreamData message carrying one numeric Reading",
                    reading(seed), true);
            case "sensor-list" -> SensorListMessage.fetch();
            default -> throw new IllegalArgumentException("unknown workload '" + name + "'; available: "
                    + String.join(", ", NAMES));
        };
    }

    /** A pushed reading as a dummy sensor's stream sends it. */
    static StreamData reading(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long seq = r.nextInt(100_000);
        long ts = READING_EPOCH_MICROS + r.nextLong(86_400_000_000L);
        double value = Math.round((15 + r.nextDouble() * 15) * 1000) / 1000.0;
        return new StreamData(1 + r.nextInt(1000), Reading.ok("DUMMY_" + r.nextInt(20), ts, seq, Value.of(value)));
    }
}
