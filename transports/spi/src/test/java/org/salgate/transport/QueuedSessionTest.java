package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.salgate.model.Call;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

class QueuedSessionTest {

    /** A session whose writes never complete, as with a peer that stopped reading. */
    private static final class StalledSession extends QueuedSession {
        final CompletableFuture<Throwable> aborted = new CompletableFuture<>();

        StalledSession(ServerOptions options, MemoryBudget budget) {
            super(1, options, budget);
        }

        @Override
        public String remoteAddress() {
            return "test";
        }

        @Override
        protected void startWriting() {
        }

        @Override
        protected void abort(Throwable cause) {
            queue().discard();
            aborted.complete(cause);
        }

        @Override
        public boolean isOpen() {
            return !aborted.isDone();
        }

        @Override
        public void close() {
            abort(null);
        }
    }

    private static final ServerOptions OPTIONS = ServerOptions.builder().build();

    @Test
    void aSessionTakesFramesUpToTheServersLimitUnlessLimitedUntilItsHello() {
        StalledSession session = new StalledSession(OPTIONS, null);
        assertEquals(OPTIONS.maxFrameBytes(), session.maxInboundFrameBytes());
        session.limitFramesUntilHello(64 * 1024);
        assertEquals(64 * 1024, session.maxInboundFrameBytes());
        session.helloAccepted();
        assertEquals(OPTIONS.maxFrameBytes(), session.maxInboundFrameBytes());
        session.limitFramesUntilHello(1024);
        assertEquals(OPTIONS.maxFrameBytes(), session.maxInboundFrameBytes(), "a limit after the hello was applied");
    }

    @Test
    void aLimitBeforeTheHelloNeverRaisesTheServersLimitAndMustBePositive() {
        StalledSession session = new StalledSession(ServerOptions.builder().maxFrameBytes(1024).build(), null);
        session.limitFramesUntilHello(64 * 1024);
        assertEquals(1024, session.maxInboundFrameBytes());
        assertThrows(IllegalArgumentException.class, () -> session.limitFramesUntilHello(0));
    }

    @Test
    void aSessionThatWouldPassTheBudgetIsAbortedNamingTheBudgetAndGivesBackAll() throws Exception {
        MemoryBudget budget = new MemoryBudget(200_000);
        StalledSession session = new StalledSession(OPTIONS, budget);
        Response answer = new Response(1, new Result.Echoed(Value.of(new byte[60_000])));
        for (int i = 0; i < 4 && session.isOpen(); i++) {
            session.send(answer);
        }
        Throwable cause = session.aborted.get(5, TimeUnit.SECONDS);
        assertNotNull(cause);
        assertTrue(cause.getMessage().contains(MemoryBudget.OPTION), cause.getMessage());
        assertEquals(0, budget.held());
        assertEquals(0, budget.connections());
    }

    @Test
    void aSessionEvictedForAnotherIsAbortedWithTheReason() throws Exception {
        MemoryBudget budget = new MemoryBudget(200_000);
        StalledSession hoarder = new StalledSession(OPTIONS, budget);
        hoarder.send(new Response(1, new Result.Echoed(Value.of(new byte[150_000]))));
        MemoryBudget.Account other = budget.open("a reader's unfinished frame", () -> { });
        assertTrue(other.take(100_000), "the smaller connection was refused while the hoarder could go");

        Throwable cause = hoarder.aborted.get(5, TimeUnit.SECONDS);
        assertTrue(cause.getMessage().contains("held the most") && cause.getMessage().contains(MemoryBudget.OPTION),
                cause.getMessage());
        assertEquals(100_000, budget.held());
        assertEquals(1, budget.connections());
    }

    @Test
    void aSessionOutsideAnyBudgetHasNoAccount() {
        StalledSession session = new StalledSession(OPTIONS, null);
        session.send(new Request(1, new Call.ListProtocols()));
        assertEquals(null, session.budget());
        assertTrue(session.queuedBytes() > 0);
    }
}
