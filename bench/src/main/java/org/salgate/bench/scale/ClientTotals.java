package org.salgate.bench.scale;

import java.util.ArrayList;
import java.util.List;

/** The client processes' reports of one cell, added up. */
public record ClientTotals(int clients, int connected, int connectFailures, String firstConnectError,
                           int streamsStarted, int streamFailures, String firstStreamError, long received, long lost,
                           long duplicated, long reordered, long agentDelivered, long agentSkipped, long agentDropped,
                           double expectedByClock, int endedByAgent, int closedByAgent, long slowestConnectMillis,
                           List<String> notes) {

    static ClientTotals of(List<ProcessReport> reports) {
        int clients = 0, connected = 0, connectFailures = 0, started = 0, streamFailures = 0, ended = 0, closed = 0;
        long received = 0, lost = 0, dup = 0, reordered = 0, delivered = 0, skipped = 0, dropped = 0, slowest = 0;
        double expected = 0;
        String firstConnect = null;
        String firstStream = null;
        List<String> notes = new ArrayList<>();
        for (ProcessReport r : reports) {
            clients += r.clients();
            connected += r.connected();
            connectFailures += r.connectFailures();
            started += r.streamsStarted();
            streamFailures += r.streamFailures();
            received += r.received();
            lost += r.lost();
            dup += r.duplicated();
            reordered += r.reordered();
            delivered += r.agentDelivered();
            skipped += r.agentSkipped();
            dropped += r.agentDropped();
            expected += r.expectedByClock();
            ended += r.endedByAgent();
            closed += r.closedByAgent();
            slowest = Math.max(slowest, r.connectMillis());
            firstConnect = firstConnect != null ? firstConnect : r.firstConnectError();
            firstStream = firstStream != null ? firstStream : r.firstStreamError();
            notes.addAll(r.notes());
        }
        return new ClientTotals(clients, connected, connectFailures, firstConnect, started, streamFailures, firstStream,
                received, lost, dup, reordered, delivered, skipped, dropped, expected, ended, closed, slowest,
                List.copyOf(notes));
    }

    /**
     * Readings the agent says it sent that no client received: its count from the stop answers
     * against what arrived, each reading counted once. Catches a loss at a stream's end, which
     * leaves no gap in the sequence numbers.
     */
    public long unaccounted() {
        return agentDelivered - (received - duplicated);
    }
}
