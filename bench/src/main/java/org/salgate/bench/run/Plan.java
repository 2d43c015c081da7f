package org.salgate.bench.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cells of a run, grouped by server (one child JVM per transport, and one more for its TLS
 * twin when the run measures both). Within a server the
 * repetitions are the outer loop, so that a repetition's cells are spread over time.
 */
public final class Plan {

    private final Map<String, List<PlannedCell>> byServer = new LinkedHashMap<>();

    private Plan() {}

    public static Plan of(RunConfig c) {
        Plan plan = new Plan();
        if (c.limits()) {
            plan.addServer(c, CellKey.RAW);
        }
        for (String name : c.cellNames()) {
            plan.addServer(c, name);
        }
        return plan;
    }

    private void addServer(RunConfig c, String transport) {
        List<PlannedCell> cells = new ArrayList<>();
        boolean raw = transport.equals(CellKey.RAW);
        for (int rep = 1; rep <= c.reps(); rep++) {
            for (Method m : Method.values()) {
                if (!c.methods().contains(m) || raw && !(m == Method.RTT || m == Method.TP || m == Method.STREAM)) {
                    continue;
                }
                for (int n : c.clients()) {
                    for (String type : dataTypes(m, raw)) {
                        CellKey key = new CellKey(c.level(), transport, m, type, n);
                        cells.add(new PlannedCell(key, rep, estimate(c, m, n)));
                    }
                }
            }
        }
        byServer.put(transport, cells);
    }

    /** The data types of a method (the raw socket ceiling runs Integer only for RTT and TP). */
    public static List<String> dataTypes(Method m, boolean raw) {
        return switch (m) {
            case RTT, TP -> raw ? List.of("Integer") : List.of("Integer", "Object", "String");
            case STREAM, RESOURCE_ASYNC -> RunConfig.STREAM_KB.stream().map(k -> k + " KB").toList();
            case RESOURCE_SYNC -> RunConfig.RESOURCE_SYNC_BYTES.stream().map(b -> b + " B").toList();
            case AGENT_SYNC -> List.of("sensor list");
            case AGENT_ASYNC -> List.of("dummy read");
        };
    }

    private static double estimate(RunConfig c, Method m, int clients) {
        double connect = 0.2 + clients * 0.003;
        return connect + switch (m) {
            case RTT -> (c.rttCalls() + c.rttWarmupCalls()) * clients * 60e-6
                    + (c.ratePerClient() > 0 ? c.rttCalls() / c.ratePerClient() : 0);
            case TP -> seconds(c.tpDuration());
            case RESOURCE_SYNC -> seconds(c.resourceDuration());
            case STREAM -> seconds(c.streamDuration()) + seconds(c.streamSettle());
            case RESOURCE_ASYNC -> seconds(c.resourceDuration()) + seconds(c.streamSettle());
            case AGENT_SYNC -> seconds(c.agentDuration());
            case AGENT_ASYNC -> seconds(c.agentDuration()) + seconds(c.streamSettle());
        };
    }

    private static double seconds(java.time.Duration d) {
        return d.toMillis() / 1000.0;
    }

    /** Server (transport) names in run order. */
    public List<String> servers() {
        return List.copyOf(byServer.keySet());
    }

    public List<PlannedCell> cells(String server) {
        return byServer.getOrDefault(server, List.of());
    }

    public int size() {
        return byServer.values().stream().mapToInt(List::size).sum();
    }

    public double estimateSeconds() {
        return byServer.values().stream().flatMap(List::stream).mapToDouble(PlannedCell::estimateSeconds).sum();
    }
}
