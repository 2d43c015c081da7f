package org.salgate.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class RunComparisonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode run(String cells) throws Exception {
        return JSON.readTree("{\"run\":{},\"cells\":[" + cells + "]}");
    }

    private static String cell(String transport, int clients, String metric, double median, double min, double max) {
        return "{\"transport\":\"" + transport + "\",\"method\":\"agent_async\",\"type\":\"dummy read\",\"clients\":"
                + clients + ",\"metrics\":{\"" + metric + "\":{\"median\":" + median + ",\"min\":" + min + ",\"max\":"
                + max + ",\"reps\":3}}}";
    }

    @Test
    void overlappingRangesAreWithinSpreadAndDisjointOnesAreHigherOrLower() throws Exception {
        JsonNode before = run(cell("netty", 1, "msgs_per_s", 100, 90, 110) + "," + cell("mina", 1, "msgs_per_s", 100, 95, 105)
                + "," + cell("socket", 1, "msgs_per_s", 100, 95, 105));
        JsonNode after = run(cell("netty", 1, "msgs_per_s", 120, 105, 125) + "," + cell("mina", 1, "msgs_per_s", 130, 120, 140)
                + "," + cell("socket", 1, "msgs_per_s", 80, 70, 90));

        List<RunComparison.Row> rows = RunComparison.rows(before, after, List.of("msgs_per_s"));

        assertEquals(List.of("within spread", "higher", "lower"), rows.stream().map(RunComparison.Row::verdict).toList());
        assertEquals(1.2, rows.get(0).ratio(), 1e-9);
    }

    @Test
    void cellsMeasuredInOnlyOneRunAreLeftOut() throws Exception {
        JsonNode before = run(cell("netty", 1, "msgs_per_s", 100, 90, 110));
        JsonNode after = run(cell("netty", 1, "msgs_per_s", 100, 90, 110) + "," + cell("grpc", 1, "msgs_per_s", 50, 40, 60)
                + "," + cell("netty", 100, "msgs_per_s", 100, 90, 110));

        List<RunComparison.Row> rows = RunComparison.rows(before, after, List.of("msgs_per_s"));

        assertEquals(1, rows.size());
        assertEquals("netty", rows.get(0).transport());
    }

    @Test
    void theFirstMetricACellHasIsUsedAndTheTableNamesBothRuns() throws Exception {
        JsonNode before = run(cell("netty", 1, "calls_per_s", 9000, 8800, 9100));
        JsonNode after = run(cell("netty", 1, "calls_per_s", 9500, 9200, 9900));

        List<RunComparison.Row> rows = RunComparison.rows(before, after, List.of("msgs_per_s", "calls_per_s"));
        String table = RunComparison.markdown(rows, "54366d5", "e8e6948");

        assertEquals("calls_per_s", rows.get(0).metric());
        assertTrue(table.contains("| 54366d5 | e8e6948 |"), table);
        assertTrue(table.contains("| netty | agent_async | dummy read | 1 | calls_per_s | 9000 [8800-9100] | 9500 [9200-9900] | 1.06 | higher |"),
                table);
    }
}
