package org.salgate.bench.restgrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.bench.cli.BenchCommand;

/** A real short run of {@code bench rest-grpc}: two agents in child JVMs, both APIs, every operation. */
class QuickRestGrpcRunTest {

    @Test
    @Timeout(240)
    void quickRunMeasuresLatencyAndBytesOfBothApisOnEveryOperation(@TempDir Path out) throws Exception {
        int code = BenchCommand.commandLine().execute("rest-grpc", "--quick", "--duration", "300ms", "--warmup",
                "200ms", "--byte-calls", "20", "--reps", "2", "--out", out.toString());
        assertEquals(0, code);

        JsonNode json = new ObjectMapper().readTree(out.resolve(RestGrpcReport.JSON).toFile());
        assertEquals(0, json.path("errors").size(), json.path("errors").toString());
        JsonNode ops = json.path("operations");
        assertEquals(3, ops.size());
        for (JsonNode op : ops) {
            for (String api : new String[] {"rest", "grpc"}) {
                JsonNode a = op.path(api);
                JsonNode p50 = a.path("latency").path("p50Micros");
                assertEquals(2, p50.path("reps").asInt(), op.path("operation") + " " + api);
                assertTrue(p50.path("median").asDouble() > 0, op.path("operation") + " " + api + " has no p50");
                assertTrue(a.path("latency").path("p99Micros").path("median").asDouble()
                        >= p50.path("median").asDouble());
                assertTrue(a.path("requestBytesPerCall").asDouble() > 0, op + " " + api);
                assertTrue(a.path("responseBytesPerCall").asDouble() > 0, op + " " + api);
            }
            assertTrue(op.path("grpcOverRestP50").asDouble() > 0);
        }
        JsonNode list = ops.get(0);
        assertEquals("list", list.path("operation").asText());
        // the agent's 20 dummy sensors and its OS sensors, the same over both APIs
        assertTrue(list.path("rest").path("answerSize").asInt() > 20);
        assertEquals(list.path("rest").path("answerSize").asInt(), list.path("grpc").path("answerSize").asInt());
        // the sensor list as JSON text with HTTP/1.1 headers is larger than as protobuf in HTTP/2 frames
        assertTrue(list.path("rest").path("bytesPerCall").asDouble() > list.path("grpc").path("bytesPerCall").asDouble(),
                list.toString());
        assertEquals(2, json.path("connectionAndFirstList").size());
        assertEquals(3 * 2 * 2, json.path("repetitions").size());

        String md = Files.readString(out.resolve(RestGrpcReport.MARKDOWN));
        assertTrue(md.contains("## End-to-end latency") && md.contains("## Bytes on the wire per call"), md);
        assertTrue(md.contains("| list | gRPC |") && md.contains("| describe | REST/JSON |"), md);
    }
}
