package org.salgate.bench.jmh;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.salgate.agent.Agent;
import org.salgate.agent.endpoint.Endpoints;
import org.salgate.client.SalClient;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.model.SensorInfo;

/**
 * What parsing described sensors' SensorML costs the other requests of the connection. One thread
 * describes a sensor again and again while another lists the sensors, both on the same connection;
 * the list's latency ({@link #list}) is the figure to compare. The description is parsed and
 * validated ({@link SensorMl#read}) either on the thread the transport delivers the answer on
 * ({@code parseOn=transport-thread}: {@code describeSensor} before it moved the parse), or as
 * {@link SalClient#describeSensor} does it now ({@code parseOn=client}), or not at all
 * ({@code parseOn=none}: the raw document, the floor). An agent on 127.0.0.1 and its client share
 * this JVM. In a fresh fork the first describe also compiles the SensorML schema: the list's largest
 * sample in the first measured iteration (with no warm-up) shows what that holds up.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DescribeBenchmark {

    private static final String SENSOR = "DUMMY_0";
    private static final long TIMEOUT_SECONDS = 60;

    @Param({"netty", "mina", "socket"})
    public String transport;

    /** Where the description is parsed: {@code transport-thread}, {@code client} or {@code none}. */
    @Param({"transport-thread", "client", "none"})
    public String parseOn;

    private Agent agent;
    private SalClient client;

    @Setup(Level.Trial)
    public void start() throws IOException {
        if (!List.of("transport-thread", "client", "none").contains(parseOn)) {
            throw new IllegalArgumentException("parseOn is transport-thread, client or none, not " + parseOn);
        }
        PlatformConfig dummiesOnly = new PlatformConfig(List.of(
                new ProtocolConfig("dummy", "dummy", Endpoints.VIRTUAL, Map.of("sensors", "20"))));
        agent = Agent.builder().transport(transport).host("127.0.0.1").port(0).platform(dummiesOnly)
                .agentId("jmh-agent").start();
        client = SalClient.builder().transport(transport).host("127.0.0.1").port(agent.port())
                .clientName("jmh").connect();
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (client != null) {
            client.close();
        }
        if (agent != null) {
            agent.close();
        }
    }

    @Benchmark
    @Group("listWhileDescribing")
    @GroupThreads(1)
    public Object describe() throws InterruptedException, ExecutionException, TimeoutException {
        CompletableFuture<?> described = switch (parseOn) {
            case "transport-thread" -> client.describeSensorXml(SENSOR).thenApply(DescribeBenchmark::read);
            case "client" -> client.describeSensor(SENSOR);
            default -> client.describeSensorXml(SENSOR);
        };
        return described.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Benchmark
    @Group("listWhileDescribing")
    @GroupThreads(1)
    public List<SensorInfo> list() throws InterruptedException, ExecutionException, TimeoutException {
        return client.listSensors().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static SensorDescription read(String xml) {
        try {
            return SensorMl.read(xml);
        } catch (DocumentException e) {
            throw new CompletionException(e);
        }
    }
}
