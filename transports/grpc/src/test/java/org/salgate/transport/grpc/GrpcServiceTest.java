package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.transport.grpc.proto.SalGrpc;
import org.salgate.wire.proto.WireProto;

/**
 * The typed {@code Sal} service against a real agent with the default platform: every synchronous
 * operation, errors in the agent's own words under the mapped status, a sensor stream and the
 * events as server streaming, and gRPC flow control as the backpressure of a stalled stream.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
class GrpcServiceTest {

    /** What a stalled typed stream may add to the heap: an agent that queued for it would add 80 MB here. */
    private static final long STALLED_HEAP_GROWTH_BOUND = 48L * 1024 * 1024;
    private static final int LARGE_PAYLOAD_BYTES = 81_920;

    private Agent agent;
    private ManagedChannel channel;
    private SalGrpc.SalBlockingStub sal;

    @BeforeEach
    void startAgent() throws Exception {
        agent = Agent.builder().transport("grpc").host("127.0.0.1").port(0).agentId("grpc-service-test").start();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", agent.port()).usePlaintext().build();
        sal = SalGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void stopAgent() throws Exception {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        agent.close();
    }

    private SalGrpc.SalBlockingStub sal() {
        return sal.withDeadlineAfter(20, TimeUnit.SECONDS);
    }

    private static WireProto.SensorRef sensor(String id) {
        return WireProto.SensorRef.newBuilder().setSensorId(id).build();
    }

    private static WireProto.Execute execute(String sensor, String command, Map<String, String> args) {
        return WireProto.Execute.newBuilder().setSensorId(sensor).setCommandId(command).putAllArguments(args).build();
    }

    @Test
    @Timeout(30)
    void servesEverySynchronousOperationOfTheDefaultPlatform() {
        List<WireProto.SensorInfo> sensors = sal().listSensors(WireProto.ListSensors.getDefaultInstance()).getSensorsList();
        assertEquals(28, sensors.size(), "20 dummy + 8 os sensors: " + sensors);

        assertTrue(sal().describeSensor(sensor("DUMMY_1")).getText().contains("<sml:PhysicalComponent"));
        assertTrue(sal().listCommands(sensor("DUMMY_1")).getText().contains("read"));
        WireProto.Reading reading = sal().execute(execute("DUMMY_1", "read", Map.of()));
        assertEquals(WireProto.ReadingStatus.READING_STATUS_OK, reading.getStatus(), reading.getError());
        assertFalse(reading.getUnit().isEmpty(), "the reading carries its unit");
        assertTrue(sal().listCommands(sensor("DUMMY_1")).getText().contains("unit=\"" + reading.getUnit() + "\""),
                "the reading's unit is the one its command declares: " + reading.getUnit());
        assertEquals(List.of("dummy", "os"), sal().listProtocols(WireProto.Empty.getDefaultInstance())
                .getProtocolsList().stream().map(WireProto.ProtocolInfo::getName).sorted().collect(Collectors.toList()));
        assertTrue(sal().getPlatformConfig(WireProto.Empty.getDefaultInstance()).getText().contains("dummy"));

        sal().removeSensor(sensor("DUMMY_3"));
        assertEquals(27, sal().listSensors(WireProto.ListSensors.getDefaultInstance()).getSensorsCount());
        sal().removeProtocol(WireProto.Text.newBuilder().setText("os").build());
        assertEquals(19, sal().listSensors(WireProto.ListSensors.getDefaultInstance()).getSensorsCount());
        assertEquals(0, agent.streamCount());
    }

    @Test
    @Timeout(30)
    void anUnknownSensorIsNotFoundInTheAgentsWords() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> sal().describeSensor(sensor("NO_SUCH_SENSOR")));
        assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains("NO_SUCH_SENSOR"), e.getStatus().getDescription());
    }

    @Test
    @Timeout(30)
    void anArgumentOutOfBoundsIsInvalidArgumentNamingTheArgument() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> sal().execute(execute("DUMMY_0", "payload", Map.of("size", "-1"))));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains("size"), e.getStatus().getDescription());
        assertEquals(28, sal().listSensors(WireProto.ListSensors.getDefaultInstance()).getSensorsCount());
    }

    /** Collects a typed stream's items; {@link #cancel} ends the call. */
    private static final class Collector<T> implements ClientResponseObserver<Object, T> {
        final BlockingQueue<T> items = new LinkedBlockingQueue<>();
        final CompletableFuture<Status> ended = new CompletableFuture<>();
        volatile ClientCallStreamObserver<Object> call;

        @Override
        public void beforeStart(ClientCallStreamObserver<Object> requestStream) {
            call = requestStream;
        }

        @Override
        public void onNext(T value) {
            items.add(value);
        }

        @Override
        public void onError(Throwable t) {
            ended.complete(Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
            ended.complete(Status.OK);
        }

        T next() throws InterruptedException {
            T item = items.poll(10, TimeUnit.SECONDS);
            if (item == null) {
                throw new AssertionError("nothing arrived within 10 s; ended: " + ended.getNow(null));
            }
            return item;
        }

        void cancel() {
            call.cancel("the test has seen enough", null);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T> Collector<T> collector() {
        return new Collector();
    }

    @Test
    @Timeout(30)
    void streamsASensorsReadingsInSequenceUntilCancelled() throws Exception {
        Collector<WireProto.Reading> readings = collector();
        SalGrpc.newStub(channel).streamSensor(WireProto.SetupStream.newBuilder().setSensorId("DUMMY_2")
                .setCommandId("read").setIntervalMs(1).build(), (ClientResponseObserver) readings);
        for (long i = 0; i < 20; i++) {
            WireProto.Reading r = readings.next();
            assertEquals(i, r.getSequence());
            assertEquals("DUMMY_2", r.getSensorId());
        }
        readings.cancel();
        Await.until("the agent to drop the cancelled stream", () -> agent.streamCount() == 0);
    }

    private static WireProto.SetupStream shared(long intervalMs) {
        return WireProto.SetupStream.newBuilder().setSensorId("DUMMY_2").setCommandId("read")
                .setIntervalMs(intervalMs).setShared(true).build();
    }

    @Test
    @Timeout(30)
    void aSharedTypedStreamIsJoinedWhereTheSharedStreamIsWithTheSameReadings() throws Exception {
        Collector<WireProto.Reading> first = collector();
        SalGrpc.newStub(channel).streamSensor(shared(20), (ClientResponseObserver) first);
        for (int i = 0; i < 5; i++) {
            first.next();
        }
        Collector<WireProto.Reading> later = collector();
        SalGrpc.newStub(channel).streamSensor(shared(20), (ClientResponseObserver) later);

        WireProto.Reading joined = later.next();
        assertTrue(joined.getSequence() >= 5, "the later call's first reading is #" + joined.getSequence());
        WireProto.Reading same;
        do {
            same = first.next();
        } while (same.getSequence() < joined.getSequence());
        assertEquals(joined, same, "one reading per tick for every subscriber");
        later.cancel();
        first.next(); // the first call goes on
        first.cancel();
    }

    @Test
    @Timeout(30)
    void aSharedTypedStreamAtIntervalZeroIsInvalidArgument() throws Exception {
        Collector<WireProto.Reading> readings = collector();
        SalGrpc.newStub(channel).streamSensor(shared(0), (ClientResponseObserver) readings);
        Status status = readings.ended.get(10, TimeUnit.SECONDS);
        assertEquals(Status.Code.INVALID_ARGUMENT, status.getCode(), String.valueOf(status));
    }

    @Test
    @Timeout(30)
    void aStreamOfAnUnknownSensorEndsNotFound() throws Exception {
        Collector<WireProto.Reading> readings = collector();
        SalGrpc.newStub(channel).streamSensor(WireProto.SetupStream.newBuilder().setSensorId("NO_SUCH_SENSOR")
                .setCommandId("read").setIntervalMs(10).build(), (ClientResponseObserver) readings);
        Status status = readings.ended.get(10, TimeUnit.SECONDS);
        assertEquals(Status.Code.NOT_FOUND, status.getCode());
        assertTrue(status.getDescription().contains("NO_SUCH_SENSOR"), status.getDescription());
    }

    @Test
    @Timeout(30)
    void watchersGetTheAgentsEvents() throws Exception {
        Collector<WireProto.Event> events = collector();
        SalGrpc.newStub(channel).watchEvents(WireProto.Empty.getDefaultInstance(), (ClientResponseObserver) events);
        // The subscription is made once the call reaches the agent; remove sensors until one is seen.
        WireProto.Event event = null;
        for (int i = 0; i < 10 && event == null; i++) {
            sal().removeSensor(sensor("DUMMY_" + i));
            event = events.items.poll(500, TimeUnit.MILLISECONDS);
        }
        assertTrue(event != null, "no event within 10 removals");
        assertEquals(WireProto.Event.Type.TYPE_SENSOR_REMOVED, event.getType());
        assertTrue(event.getSubject().startsWith("DUMMY_"), event.getSubject());
        events.cancel();
    }

    @Test
    @Timeout(60)
    void aStalledStreamDoesNotGrowTheAgentsMemoryWhileAnotherStreams() throws Exception {
        Map<String, String> large = Map.of("size", Integer.toString(LARGE_PAYLOAD_BYTES));
        long heapBefore = usedHeap();

        // A caller that takes one reading and then reads nothing: only gRPC flow control holds the agent back.
        AtomicLong stalledReceived = new AtomicLong();
        BlockingQueue<Long> stalledSequences = new LinkedBlockingQueue<>();
        ClientCall<WireProto.SetupStream, WireProto.Reading> stalled =
                channel.newCall(SalGrpc.getStreamSensorMethod(), CallOptions.DEFAULT);
        stalled.start(new ClientCall.Listener<>() {
            @Override
            public void onMessage(WireProto.Reading message) {
                stalledReceived.incrementAndGet();
                stalledSequences.add(message.getSequence());
            }
        }, new Metadata());
        stalled.request(1);
        stalled.sendMessage(WireProto.SetupStream.newBuilder().setSensorId("DUMMY_4").setCommandId("payload")
                .putAllArguments(large).build());
        stalled.halfClose();
        Await.until("the stalled call's first reading", () -> stalledReceived.get() == 1);

        Collector<WireProto.Reading> fast = collector();
        SalGrpc.newStub(channel).streamSensor(WireProto.SetupStream.newBuilder().setSensorId("DUMMY_5")
                .setCommandId("payload").putAllArguments(large).build(), (ClientResponseObserver) fast);
        int fastReadings = 1_000; // 80 MB: an agent queueing for the stalled call would queue as much
        for (int i = 0; i < fastReadings; i++) {
            assertEquals(i, fast.next().getSequence());
        }
        fast.cancel();
        long growth = usedHeap() - heapBefore;
        assertEquals(1, stalledReceived.get(), "the stalled call got readings it did not ask for");
        assertTrue(growth < STALLED_HEAP_GROWTH_BOUND, "the heap grew by " + growth / 1024 / 1024
                + " MiB while one typed stream was stalled; the agent buffers without bound for it");

        stalled.request(50);
        Await.until(() -> "the stalled call to get readings again: " + stalledReceived.get(), Duration.ofSeconds(20),
                () -> stalledReceived.get() == 51);
        long expected = 0;
        for (Long sequence : stalledSequences) {
            assertEquals(expected++, sequence, "the stalled stream lost or reordered readings");
        }
        stalled.cancel("done", null);
        Await.until("the agent to drop both streams", () -> agent.streamCount() == 0);
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
