package org.salgate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.inmemory.FakeAgent;
import org.salgate.client.inmemory.InMemoryTransport;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.wire.EventNotice;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.wire.StreamData;
import org.salgate.model.StreamCounts;
import org.salgate.wire.StreamEnded;
import org.salgate.model.Value;

@Timeout(30)
class SalClientTest {

    private FakeAgent agent;
    private SalClient client;

    @BeforeEach
    void startAgent() throws IOException {
        agent = FakeAgent.start();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        agent.close();
    }

    private SalClient.Builder builder() {
        return SalClient.builder().transport(InMemoryTransport.NAME).port(agent.port()).clientName("test");
    }

    private SalClient connect() throws IOException {
        client = builder().connect();
        return client;
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(10, TimeUnit.SECONDS);
    }

    private static Throwable failure(CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
        return e.getCause();
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "condition not met within 10 s");
            Thread.sleep(5);
        }
    }

    // ---- connecting

    @Test
    void helloRefusedThrowsWithTheAgentsReason() {
        agent.refuseHello("unsupported protocol version 1");
        HelloRefusedException e = assertThrows(HelloRefusedException.class, this::connect);
        assertEquals("unsupported protocol version 1", e.reason());
        assertTrue(e.getMessage().contains("refused") && e.getMessage().contains("unsupported protocol version 1"),
                e.getMessage());
    }

    @Test
    void nothingListeningFailsToConnectNamingTheAddress() {
        int port = InMemoryTransport.unusedPort();
        IOException e = assertThrows(IOException.class,
                () -> SalClient.builder().transport(InMemoryTransport.NAME).port(port).connect());
        assertInstanceOf(ConnectException.class, e.getCause());
        assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
    }

    @Test
    void unknownTransportNamesTheAvailableOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SalClient.builder().transport("carrier-pigeon").connect());
        assertTrue(e.getMessage().contains("carrier-pigeon") && e.getMessage().contains(InMemoryTransport.NAME),
                e.getMessage());
    }

    @Test
    void providerObjectCanBeGivenInsteadOfAName() throws Exception {
        client = SalClient.builder().transport(new InMemoryTransport()).port(agent.port()).connect();
        assertTrue(client.isOpen());
        assertEquals("fake", client.agentId());
        assertEquals(InMemoryTransport.NAME, client.transportName());
    }

    // ---- requests map to calls and results

    @Test
    void listSensorsAndActiveSensorsSendListSensors() throws Exception {
        connect();
        List<SensorInfo> all = await(client.listSensors());
        assertEquals(new Call.ListSensors(false), agent.nextCall());
        assertEquals(List.of("DUMMY_0", "DUMMY_1", "freeMemory"), all.stream().map(SensorInfo::id).toList());
        List<SensorInfo> active = await(client.listActiveSensors());
        assertEquals(new Call.ListSensors(true), agent.nextCall());
        assertEquals(List.of("DUMMY_1"), active.stream().map(SensorInfo::id).toList());
    }

    @Test
    void documentsComeBackAsXml() throws Exception {
        connect();
        assertEquals(FakeAgent.SENSOR_ML, await(client.describeSensorXml("DUMMY_0")));
        assertEquals(new Call.DescribeSensor("DUMMY_0"), agent.nextCall());
        assertEquals(FakeAgent.CML, await(client.listCommandsXml("DUMMY_0")));
        assertEquals(new Call.ListCommands("DUMMY_0"), agent.nextCall());
        assertEquals(FakeAgent.PCML, await(client.platformConfigXml()));
        assertEquals(new Call.GetPlatformConfig(), agent.nextCall());
    }

    @Test
    void executeSendsTheCommandAndArguments() throws Exception {
        connect();
        Reading r = await(client.execute("DUMMY_0", "payload", Map.of("size", "1000")));
        assertEquals(new Call.Execute("DUMMY_0", "payload", Map.of("size", "1000")), agent.nextCall());
        assertEquals(1000, ((Value.Bytes) r.value()).value().length);
        Reading plain = await(client.execute("DUMMY_0", "read", null));
        assertEquals(new Call.Execute("DUMMY_0", "read", Map.of()), agent.nextCall());
        assertEquals(new Value.Num(42.5), plain.value());
    }

    @Test
    void sensorAndProtocolManagementMapToTheirCalls() throws Exception {
        connect();
        SensorInfo added = await(client.addSensor("<sensor/>"));
        assertEquals(new Call.AddSensor("<sensor/>"), agent.nextCall());
        assertEquals("NEW_0", added.id());
        assertNull(await(client.removeSensor("DUMMY_0")));
        assertEquals(new Call.RemoveSensor("DUMMY_0"), agent.nextCall());
        List<ProtocolInfo> protocols = await(client.listProtocols());
        assertEquals(new Call.ListProtocols(), agent.nextCall());
        assertEquals(List.of("dummy", "os"), protocols.stream().map(ProtocolInfo::name).toList());
        List<ProtocolInfo> addedProtocols = await(client.addProtocol("<pcml/>"));
        assertEquals(new Call.AddProtocol("<pcml/>"), agent.nextCall());
        assertEquals("extra", addedProtocols.get(0).name());
        assertNull(await(client.removeProtocol("os")));
        assertEquals(new Call.RemoveProtocol("os"), agent.nextCall());
    }

    @Test
    void typedDescriptionsAreParsed() throws Exception {
        SensorDescription description = new SensorDescription("DUMMY_0", "dummy sensor", "dummy", "",
                List.of(Output.quantity("value", "http://example.org/value", "Cel")), SamplingBounds.ANY);
        CommandDescription command = CommandDescription.builder("read").response("decimal", "Cel")
                .streaming(SamplingBounds.ANY).build();
        String sensorMl = SensorMl.write(description);
        String cml = Cml.write(List.of(command));
        agent.answer(Call.DescribeSensor.class, c -> new Result.Document(sensorMl));
        agent.answer(Call.ListCommands.class, c -> new Result.Document(cml));
        connect();
        assertEquals("DUMMY_0", await(client.describeSensor("DUMMY_0")).id());
        assertEquals("read", await(client.listCommands("DUMMY_0")).get(0).id());
    }

    // ---- failures

    @Test
    void failureBecomesSalExceptionWithItsCode() throws Exception {
        connect();
        Throwable e = failure(client.describeSensorXml("NOPE"));
        SalException se = assertInstanceOf(SalException.class, e);
        assertEquals(ErrorCode.UNKNOWN_SENSOR, se.code());
        assertEquals("no sensor NOPE", se.getMessage());
        assertTrue(client.isOpen(), "a failed request leaves the connection open");
        assertEquals(3, await(client.listSensors()).size());
    }

    @Test
    void answerOfTheWrongTypeFailsAsProtocolError() throws Exception {
        agent.answer(Call.ListSensors.class, c -> new Result.Ack());
        connect();
        SalException se = assertInstanceOf(SalException.class, failure(client.listSensors()));
        assertEquals(ErrorCode.PROTOCOL_ERROR, se.code());
    }

    @Test
    void unansweredRequestTimesOutAndIsForgotten() throws Exception {
        agent.silentOn(Call.ListSensors.class);
        client = builder().requestTimeout(Duration.ofMillis(200)).connect();
        Throwable e = failure(client.listSensors());
        assertInstanceOf(TimeoutException.class, e);
        assertTrue(e.getMessage().contains("ListSensors"), e.getMessage());
        assertEquals(0, client.connection().pendingRequests());
        assertEquals(2, await(client.listProtocols()).size(), "the connection still works after a timeout");
    }

    @Test
    void connectionClosedByTheAgentFailsPendingRequests() throws Exception {
        agent.silentOn(Call.ListSensors.class);
        connect();
        CompletableFuture<List<SensorInfo>> pending = client.listSensors();
        agent.expectCall(Call.ListSensors.class);
        agent.dropConnections();
        Throwable e = failure(pending);
        assertInstanceOf(ConnectionClosedException.class, e);
        assertTrue(e.getMessage().contains("connection to agent at 127.0.0.1:" + agent.port() + " closed"),
                e.getMessage());
        await(client.closeFuture());
        assertFalse(client.isOpen());
        assertInstanceOf(ConnectionClosedException.class, failure(client.listProtocols()));
        assertEquals(0, client.connection().pendingRequests());
    }

    @Test
    void closeFailsPendingRequestsAndIsIdempotent() throws Exception {
        agent.silentOn(Call.ListSensors.class);
        connect();
        CompletableFuture<List<SensorInfo>> pending = client.listSensors();
        client.close();
        client.close();
        assertInstanceOf(ConnectionClosedException.class, failure(pending));
        assertFalse(client.isOpen());
    }

    // ---- streams

    @Test
    void streamListenerGetsFramesPushedAtStartInOrder() throws Exception {
        agent.framesOnStart(200);
        connect();
        List<Long> sequences = new CopyOnWriteArrayList<>();
        SensorStream stream = await(client.stream("DUMMY_0", "read", Map.of("a", "b"), 10, r -> sequences.add(r.sequence())));
        Call.SetupStream setup = agent.expectCall(Call.SetupStream.class);
        assertEquals(new Call.SetupStream("DUMMY_0", "read", Map.of("a", "b"), 10), setup);
        assertEquals(new Call.StartStream(stream.id()), agent.nextCall());
        awaitTrue(() -> sequences.size() == 200);
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 200; i++) {
            expected.add(i);
        }
        assertEquals(expected, sequences);
        assertEquals(0, client.unknownStreamFrames());
    }

    @Test
    void streamStartsAreSentFromTheClientsReusedSendThreadsNotANewThreadEach() throws Exception {
        connect();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        await(await(client.stream("DUMMY_0", "read", null, 10, r -> { })).stop()); // the first send thread starts
        long startedBefore = threads.getTotalStartedThreadCount();
        int streams = 50;
        for (int i = 0; i < streams; i++) {
            await(await(client.stream("DUMMY_0", "read", null, 10, r -> { })).stop());
        }
        long started = threads.getTotalStartedThreadCount() - startedBefore;
        assertTrue(started < 5, started + " threads started for " + streams + " streams started one after another");
    }

    @Test
    void stopSendsStopStreamEndsTheStreamAndDropsLaterFrames() throws Exception {
        connect();
        List<String> ended = new CopyOnWriteArrayList<>();
        List<Reading> readings = new CopyOnWriteArrayList<>();
        SensorStream stream = await(client.stream("DUMMY_0", "read", null, 0, new StreamListener() {
            @Override
            public void onReading(Reading reading) {
                readings.add(reading);
            }

            @Override
            public void onEnded(String reason) {
                ended.add(reason);
            }
        }));
        agent.push(new StreamData(stream.id(), FakeAgent.reading("DUMMY_0", 0)));
        awaitTrue(() -> readings.size() == 1);
        CompletableFuture<Void> stop = stream.stop();
        assertSame(stop, stream.stop(), "stop() again returns the same future");
        await(stop);
        agent.expectCall(Call.SetupStream.class);
        agent.expectCall(Call.StartStream.class);
        assertEquals(new Call.StopStream(stream.id()), agent.nextCall());
        assertEquals(1, ended.size());
        agent.push(new StreamData(stream.id(), FakeAgent.reading("DUMMY_0", 1)));
        awaitTrue(() -> client.unknownStreamFrames() == 1);
        assertEquals(1, readings.size());
        assertEquals(1, ended.size(), "onEnded is called once");
    }

    /** A listener that records the sequences it gets and the gaps it is told of, as "missed@next". */
    private static final class SequenceRecorder implements StreamListener {
        final List<Long> sequences = new CopyOnWriteArrayList<>();
        final List<String> gaps = new CopyOnWriteArrayList<>();

        @Override
        public void onReading(Reading reading) {
            sequences.add(reading.sequence());
        }

        @Override
        public void onGap(long missed, long nextSequence) {
            gaps.add(missed + "@" + nextSequence);
        }
    }

    @Test
    void aSharedStreamAsksTheAgentToJoinItsSharedStreamAndSaysSo() throws Exception {
        connect();
        PendingStream pending = await(client.setupStream("DUMMY_0", "read", Map.of("a", "b"), 100,
                SlowConsumerPolicy.DROP_OLDEST, true));
        assertEquals(new Call.SetupStream("DUMMY_0", "read", Map.of("a", "b"), 100, SlowConsumerPolicy.DROP_OLDEST,
                true), agent.expectCall(Call.SetupStream.class));
        assertTrue(pending.shared());
        SensorStream stream = await(pending.start(r -> { }));
        assertTrue(stream.shared());
        assertEquals(SlowConsumerPolicy.DROP_OLDEST, stream.policy());
        assertEquals(new Call.StartStream(stream.id()), agent.nextCall());

        SensorStream own = await(client.stream("DUMMY_0", "read", null, 100, r -> { }));
        assertFalse(agent.expectCall(Call.SetupStream.class).shared(), "the older overloads ask for a stream of one's own");
        assertFalse(own.shared());
    }

    @Test
    void aSharedStreamsFirstReadingPastZeroIsNoGapButLaterJumpsAre() throws Exception {
        agent.sharedStreamsAt(500).framesOnStart(3);
        connect();
        SequenceRecorder listener = new SequenceRecorder();
        SensorStream stream = await(client.stream("DUMMY_0", "read", null, 100, null, true, listener));
        awaitTrue(() -> listener.sequences.size() == 3);
        assertEquals(List.of(500L, 501L, 502L), listener.sequences);
        assertEquals(List.of(), listener.gaps, "readings before this client joined are not lost readings");

        agent.push(new StreamData(stream.id(), FakeAgent.reading("DUMMY_0", 505)));
        awaitTrue(() -> listener.sequences.size() == 4);
        assertEquals(List.of("2@505"), listener.gaps);
        await(stream.stop());
        assertEquals(new StreamCounts(4, 0, 2), await(stream.counts()), "what this client saw: 4 taken, 2 missed");
    }

    @Test
    void anOwnStreamWhoseFirstReadingIsPastZeroReportsTheGap() throws Exception {
        connect();
        SequenceRecorder listener = new SequenceRecorder();
        SensorStream stream = await(client.stream("DUMMY_0", "read", null, 100, listener));
        agent.push(new StreamData(stream.id(), FakeAgent.reading("DUMMY_0", 3)));
        awaitTrue(() -> listener.sequences.size() == 1);
        assertEquals(List.of("3@3"), listener.gaps);
    }

    @Test
    void clientsJoiningTheSameSharedStreamGetItsOneIdAndADifferentIntervalIsAnotherStream() throws Exception {
        connect();
        try (SalClient other = builder().connect()) {
            SensorStream mine = await(client.stream("DUMMY_0", "read", Map.of("a", "b"), 100, null, true, r -> { }));
            SensorStream theirs = await(other.stream("DUMMY_0", "read", Map.of("a", "b"), 100, null, true, r -> { }));
            SensorStream slower = await(other.stream("DUMMY_0", "read", Map.of("a", "b"), 200, null, true, r -> { }));
            assertEquals(mine.id(), theirs.id());
            assertFalse(slower.id() == mine.id(), "another interval is another shared stream");
        }
    }

    @Test
    void aSecondJoinOnOneConnectionIsRefusedAndTheFirstKeepsItsReadings() throws Exception {
        connect();
        SequenceRecorder listener = new SequenceRecorder();
        SensorStream first = await(client.stream("DUMMY_0", "read", null, 100, null, true, listener));
        SalException refused = assertInstanceOf(SalException.class,
                failure(client.stream("DUMMY_0", "read", null, 100, null, true, r -> { })));
        assertEquals(ErrorCode.CONFLICT, refused.code());

        agent.push(new StreamData(first.id(), FakeAgent.reading("DUMMY_0", 7)));
        awaitTrue(() -> listener.sequences.size() == 1);
        assertFalse(first.counts().isDone(), "the refused join must not end the stream this client takes");
    }

    @Test
    void aSharedStreamAtIntervalZeroIsRefusedInTheAgentsWords() throws Exception {
        connect();
        SalException refused = assertInstanceOf(SalException.class,
                failure(client.stream("DUMMY_0", "read", null, 0, null, true, r -> { })));
        assertEquals(ErrorCode.INVALID_ARGUMENT, refused.code());
        assertTrue(refused.getMessage().contains("interval"), refused.getMessage());
        assertEquals(0, agent.expectCall(Call.SetupStream.class).intervalMs());
    }

    @Test
    void streamEndedByTheAgentReachesTheListener() throws Exception {
        connect();
        CompletableFuture<String> ended = new CompletableFuture<>();
        SensorStream stream = await(client.stream("DUMMY_0", "read", null, 100, new StreamListener() {
            @Override
            public void onReading(Reading reading) {}

            @Override
            public void onEnded(String reason) {
                ended.complete(reason);
            }
        }));
        agent.push(new StreamEnded(stream.id(), "sensor DUMMY_0 removed"));
        assertEquals("sensor DUMMY_0 removed", await(ended));
        await(stream.stop()); // nothing to stop any more: completes at once
    }

    @Test
    void failedStartLeavesNoStreamBehind() throws Exception {
        agent.answer(Call.StartStream.class, c -> new Result.Failure(ErrorCode.OVERLOADED, "too many streams"));
        connect();
        CountDownLatch got = new CountDownLatch(1);
        SalException se = assertInstanceOf(SalException.class,
                failure(client.stream("DUMMY_0", "read", null, 100, r -> got.countDown())));
        assertEquals(ErrorCode.OVERLOADED, se.code());
        agent.push(new StreamData(101, FakeAgent.reading("DUMMY_0", 0)));
        awaitTrue(() -> client.unknownStreamFrames() == 1);
        assertEquals(1, got.getCount());
    }

    @Test
    void framesOfUnknownStreamsAreDroppedAndCounted() throws Exception {
        connect();
        agent.push(new StreamData(999, FakeAgent.reading("DUMMY_0", 0)));
        agent.push(new StreamData(998, FakeAgent.reading("DUMMY_0", 0)));
        awaitTrue(() -> client.unknownStreamFrames() == 2);
        assertTrue(client.isOpen());
    }

    @Test
    void listenerThatThrowsDoesNotKillTheConnection() throws Exception {
        agent.framesOnStart(5);
        connect();
        List<Long> seen = new CopyOnWriteArrayList<>();
        await(client.stream("DUMMY_0", "read", null, 10, r -> {
            seen.add(r.sequence());
            throw new IllegalStateException("listener bug");
        }));
        awaitTrue(() -> seen.size() == 5);
        assertTrue(client.isOpen());
        assertEquals(3, await(client.listSensors()).size());
    }

    @Test
    void closingTheConnectionEndsStreams() throws Exception {
        connect();
        CompletableFuture<String> ended = new CompletableFuture<>();
        await(client.stream("DUMMY_0", "read", null, 10, new StreamListener() {
            @Override
            public void onReading(Reading reading) {}

            @Override
            public void onEnded(String reason) {
                ended.complete(reason);
            }
        }));
        agent.dropConnections();
        assertTrue(await(ended).contains("closed"));
    }

    // ---- events

    @Test
    void eventsReachTheListenerUntilUnsubscribed() throws Exception {
        connect();
        List<Event> events = Collections.synchronizedList(new ArrayList<>());
        AutoCloseable subscription = await(client.subscribeEvents(events::add));
        assertEquals(new Call.SubscribeEvents(), agent.nextCall());
        Event added = new Event(Event.Type.SENSOR_ADDED, "NEW_0", null, FakeAgent.TIMESTAMP_MICROS, "");
        Event state = new Event(Event.Type.SENSOR_STATE, "DUMMY_0", SensorState.STREAMING, FakeAgent.TIMESTAMP_MICROS, "");
        agent.push(new EventNotice(added));
        agent.push(new EventNotice(state));
        awaitTrue(() -> events.size() == 2);
        assertEquals(List.of(added, state), events);
        subscription.close();
        assertEquals(new Call.UnsubscribeEvents(), agent.nextCall());
    }

    @Test
    void missedEventsAreCountedOnlyOnceTheListenersHaveBeenToldOfThem() throws Exception {
        connect();
        List<Event> events = new CopyOnWriteArrayList<>();
        CountDownLatch told = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AutoCloseable subscription = await(client.subscribeEvents(event -> {
            events.add(event);
            if (event.type() == Event.Type.EVENTS_MISSED) {
                told.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS); // the listener is still being told
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }));
        agent.expectCall(Call.SubscribeEvents.class);
        Event state = new Event(Event.Type.SENSOR_STATE, "DUMMY_0", SensorState.IDLE, FakeAgent.TIMESTAMP_MICROS, "");
        agent.push(new EventNotice(state, 7));
        assertTrue(told.await(10, TimeUnit.SECONDS), "no EVENTS_MISSED event reached the listener");
        assertEquals(0, client.missedEvents(), "the loss was counted while the listener was still being told of it");
        release.countDown();
        awaitTrue(() -> client.missedEvents() == 7);
        assertEquals(Event.Type.EVENTS_MISSED, events.get(0).type());
        assertEquals(state, events.get(1), "the event that came with the notice follows the announcement");
        subscription.close();
    }

    @Test
    void listenersShareOneSubscription() throws Exception {
        connect();
        List<Event> first = new CopyOnWriteArrayList<>();
        List<Event> second = new CopyOnWriteArrayList<>();
        AutoCloseable a = await(client.subscribeEvents(first::add));
        AutoCloseable b = await(client.subscribeEvents(second::add));
        agent.expectCall(Call.SubscribeEvents.class);
        Event e = new Event(Event.Type.PROTOCOL_REMOVED, "os", null, FakeAgent.TIMESTAMP_MICROS, "");
        agent.push(new EventNotice(e));
        awaitTrue(() -> first.size() == 1 && second.size() == 1);
        a.close();
        b.close();
        assertEquals(new Call.UnsubscribeEvents(), agent.nextCall(), "one unsubscribe, after the last listener");
    }
}
