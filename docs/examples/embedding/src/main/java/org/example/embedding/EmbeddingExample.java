package org.example.embedding;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.client.SensorStream;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.model.Reading;
import org.salgate.model.SensorInfo;

/** Starts an agent with three dummy sensors, then lists, reads and streams them with a client. */
public final class EmbeddingExample {

    public static void main(String[] args) throws Exception {
        // One protocol: the dummy plugin (salgate-plugin-dummy) with three sensors, DUMMY_0..DUMMY_2.
        PlatformConfig platform = new PlatformConfig(List.of(
                new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "3"))));

        try (Agent agent = Agent.builder()
                .transport("netty")      // the transport module on the class path (salgate-transport-netty)
                .port(0)                 // 0 picks a free port; the address is 127.0.0.1 unless .host(...) says otherwise
                .platform(platform)
                .start();
             SalClient client = SalClient.builder().transport("netty").port(agent.port()).connect()) {

            System.out.println("agent listening on " + agent.address().getHostString() + ":" + agent.port());

            List<SensorInfo> sensors = client.listSensors().get();
            System.out.println(sensors.size() + " sensors: " + sensors.stream().map(SensorInfo::id).toList());

            Reading once = client.execute("DUMMY_0", "read", Map.of()).get();
            System.out.println("DUMMY_0 read: " + once.value() + " " + once.status());

            CountDownLatch three = new CountDownLatch(3);
            SensorStream stream = client.stream("DUMMY_0", "read", Map.of(), 100, reading -> {
                System.out.println("DUMMY_0 stream #" + reading.sequence() + ": " + reading.value());
                three.countDown();
            }).get();
            if (!three.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the stream delivered fewer than 3 readings in 10 s");
            }
            stream.stop().get();
        }
    }
}
