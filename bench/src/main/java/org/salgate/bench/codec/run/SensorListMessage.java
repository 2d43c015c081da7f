package org.salgate.bench.codec.run;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;

/**
 * The answer to ListSensors, taken from a real agent: one is started on the netty transport and a
 * free port with its default platform, and a client asks it for its sensors.
 */
final class SensorListMessage {

    private static final long LIST_TIMEOUT_SECONDS = 30; // first call includes the OS plugin's first probe

    private SensorListMessage() {}

    static CodecWorkload fetch() throws IOException {
        List<SensorInfo> sensors;
        try (Agent agent = Agent.builder().transport("netty").host("127.0.0.1").port(0)
                .dummySensors(Agent.DEFAULT_DUMMY_SENSORS).agentId("codec-bench").start();
             SalClient client = SalClient.builder().transport("netty").host("127.0.0.1").port(agent.port()).connect()) {
            sensors = client.listSensors().get(LIST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while listing the agent's sensors", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("the embedded agent did not list its sensors: " + e.getMessage(), e);
        }
        Map<String, Long> byProtocol = sensors.stream()
                .collect(Collectors.groupingBy(SensorInfo::protocol, TreeMap::new, Collectors.counting()));
        String detail = "the agent's Response to ListSensors: " + sensors.size() + " sensors (" + byProtocol.entrySet()
                .stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(" + ")) + ")";
        return new CodecWorkload("sensor-list", detail, new Response(1, new Result.Sensors(sensors)), true);
    }
}
