package org.salgate.bench.scale;

import java.util.List;

/**
 * What one client process says about its clients, as one line on its stdout
 * ({@value #LINE_PREFIX} followed by this record as JSON). It says it after each phase; every
 * figure is the process's total so far.
 *
 * @param process the process's number, 0 to processes - 1
 * @param phase {@link #READY}, {@link #CONNECTED}, {@link #STARTED} or {@link #RESULT}
 * @param clients the clients this process runs (client i runs in process i mod processes)
 * @param connected clients that connected and completed their hello
 * @param connectFailures clients that could not connect or whose hello failed
 * @param firstConnectError the first connect failure's message, or null
 * @param connectMillis how long this process took to connect its clients
 * @param streamsStarted streams set up and started (stream mode)
 * @param streamFailures streams that failed to set up, start or stop (stream mode)
 * @param firstStreamError the first such failure's message, or null
 * @param received readings received (stream mode), every one numbered by the agent
 * @param lost sequence numbers skipped and never received
 * @param duplicated readings received twice
 * @param reordered readings received after a later one
 * @param agentDelivered readings the agent counted as sent, from its answers to the stops
 * @param agentSkipped ticks the agent skipped because the client's connection was not taking frames
 * @param agentDropped readings the agent dropped (drop-oldest streams only)
 * @param expectedByClock readings the interval asks for: per stream 1 + (time from the start's answer to the
 *                        stop's) / interval, as this process's clock saw it
 * @param endedByAgent streams the agent ended on its own
 * @param closedByAgent sessions found closed when the process checked them at the end (idle mode: while held)
 * @param notes anything else that went wrong, one sentence each (at most a few)
 */
public record ProcessReport(int process, String phase, int clients, int connected, int connectFailures,
                            String firstConnectError, long connectMillis, int streamsStarted, int streamFailures,
                            String firstStreamError, long received, long lost, long duplicated, long reordered,
                            long agentDelivered, long agentSkipped, long agentDropped, double expectedByClock,
                            int endedByAgent, int closedByAgent, List<String> notes) {

    /** The start of a report line on a client process's stdout. */
    public static final String LINE_PREFIX = "SCALE ";
    /**
     * The start of a progress line on a client process's stdout while it connects: followed by how
     * many of its clients it has tried so far. It comes at most every
     * {@link #PROGRESS_EVERY_MILLIS}, and only when that number has grown.
     */
    public static final String PROGRESS_PREFIX = "SCALE-PROGRESS ";
    public static final long PROGRESS_EVERY_MILLIS = 5_000;
    /** The process is up and has not connected yet: it waits for the order {@code connect}. */
    public static final String READY = "ready";
    public static final String CONNECTED = "connected";
    public static final String STARTED = "started";
    public static final String RESULT = "result";

    public ProcessReport {
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** A report of a process that never said anything for {@code phase}: all its clients count as failed. */
    static ProcessReport failed(int process, String phase, int clients, String why) {
        return new ProcessReport(process, phase, clients, 0, clients, why, 0, 0, 0, null, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, List.of("process " + process + ": " + why));
    }
}
