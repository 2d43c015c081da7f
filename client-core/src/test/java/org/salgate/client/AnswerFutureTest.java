package org.salgate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.TransportClient;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;

class AnswerFutureTest {

    /** A transport that records each offer and does what the test says with it. */
    private static final class OfferedTransport implements TransportClient {
        final List<Future<?>> offered = new ArrayList<>();
        final List<Message> sent = new ArrayList<>();
        final List<Long> deadlines = new ArrayList<>();
        Consumer<Future<?>> onOffer = f -> { };

        @Override
        public void readWhileWaiting(Future<?> answer, long deadlineNanos) {
            offered.add(answer);
            deadlines.add(deadlineNanos);
            onOffer.accept(answer);
        }

        @Override
        public void connect(ClientHandler handler) {
        }

        @Override
        public void send(Message message) {
            sent.add(message);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aWaitingThreadIsOfferedToTheTransportUntilTheRequestsDeadline() throws Exception {
        OfferedTransport transport = new OfferedTransport();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        AnswerFuture<String> answer = new AnswerFuture<>(transport, deadline);
        transport.onOffer = f -> answer.complete("read on the waiting thread");

        assertEquals("read on the waiting thread", answer.get());
        assertSame(answer, transport.offered.get(0));
        assertEquals(deadline, transport.deadlines.get(0));
    }

    @Test
    void aDerivedStageIsOfferedTooAndCompletesOnTheReadingThread() {
        OfferedTransport transport = new OfferedTransport();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        AnswerFuture<Integer> answer = new AnswerFuture<>(transport, deadline);
        CompletableFuture<String> derived = answer.thenApply(n -> "sensors: " + n);
        assertInstanceOf(AnswerFuture.class, derived);
        transport.onOffer = f -> answer.complete(28); // the read delivers the request's answer

        assertEquals("sensors: 28", derived.join());
        assertSame(derived, transport.offered.get(0));
        assertEquals(deadline, transport.deadlines.get(0));
    }

    @Test
    void aTimedWaitOffersNoLongerThanItsOwnTimeout() {
        OfferedTransport transport = new OfferedTransport();
        AnswerFuture<String> answer = new AnswerFuture<>(transport, System.nanoTime() + TimeUnit.HOURS.toNanos(1));
        long before = System.nanoTime();

        assertThrows(TimeoutException.class, () -> answer.get(50, TimeUnit.MILLISECONDS));
        long offeredFor = transport.deadlines.get(0) - before;
        assertTrue(offeredFor <= TimeUnit.MILLISECONDS.toNanos(50) + TimeUnit.MILLISECONDS.toNanos(20),
                "offered for " + offeredFor + " ns");
    }

    @Test
    void withoutARequestTimeoutTheOfferHasAFarDeadlineAndADoneFutureNone() {
        OfferedTransport transport = new OfferedTransport();
        AnswerFuture<String> answer = new AnswerFuture<>(transport, Long.MAX_VALUE);
        transport.onOffer = f -> answer.complete("in");

        assertEquals("in", answer.join());
        assertTrue(transport.deadlines.get(0) - System.nanoTime() > TimeUnit.DAYS.toNanos(365));
        answer.join();
        assertEquals(1, transport.offered.size(), "a done future is not offered");
    }

    @Test
    void aStreamsStopAndItsFinalCountsAreOfferedAsARequestsAnswerIs() throws Exception {
        OfferedTransport transport = new OfferedTransport();
        ClientConnection connection = new ClientConnection(transport, "agent:1", "fake", Duration.ZERO);
        ActiveStream stream = new ActiveStream(3, SlowConsumerPolicy.BLOCK, false, reading -> { }, connection);
        StreamCounts counts = new StreamCounts(5, 0, 0);
        transport.onOffer = f -> { // the read delivers the agent's answer to the StopStream
            Request stop = (Request) transport.sent.get(transport.sent.size() - 1);
            connection.messageReceived(new Response(stop.id(), new Result.StreamStopped(counts)));
        };

        CompletableFuture<Void> stopped = stream.stop();
        stopped.get(10, TimeUnit.SECONDS); // a future that is not offered would wait here in vain
        assertSame(stopped, transport.offered.get(0), "the wait for the stop was offered to the transport");
        assertEquals(counts, stream.counts().join());
        assertInstanceOf(AnswerFuture.class, stream.counts(), "a wait for the final counts is offered too");
    }
}
