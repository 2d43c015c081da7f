package org.salgate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
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

class AnswerFutureTest {

    /** A transport that records each offer and does what the test says with it. */
    private static final class OfferedTransport implements TransportClient {
        final List<Future<?>> offered = new ArrayList<>();
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
}
