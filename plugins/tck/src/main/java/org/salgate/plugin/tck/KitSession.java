package org.salgate.plugin.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.salgate.agent.Agent;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.wire.EventNotice;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.StreamData;

/** A client session of a {@link KitAgent}, in-process: calls with their answers, and what the agent pushed. */
public final class KitSession implements AutoCloseable {

    /** How long any wait of the suite may take before the test fails. */
    public static final long WAIT_MS = 10_000;

    private final List<Message> pushed = new ArrayList<>();
    private BridgeSession session;

    private KitSession() {
    }

    static KitSession open(Agent agent) {
        KitSession s = new KitSession();
        s.session = agent.openSession("plugin-tck", () -> true, new BridgeSession.Sink() {
            @Override
            public void pushed(Message message) {
                synchronized (s.pushed) {
                    s.pushed.add(message);
                    s.pushed.notifyAll();
                }
            }

            @Override
            public void closed(boolean byAgent) {
            }
        });
        HelloReply reply = s.await("the hello", s.session.hello("plugin-tck", agent.codecName(),
                agent.inProcessCredentials()));
        assertTrue(reply.accepted(), () -> "the agent refused the suite's hello: " + reply.error());
        return s;
    }

    /** Sends a call without waiting for its answer. */
    public CompletableFuture<Result> send(Call call) {
        return session.call(call);
    }

    /** Sends a call and waits for its answer, a failure included. */
    public Result call(Call call) {
        return await(call.toString(), send(call));
    }

    /** Sends a call that must succeed with a result of {@code type}. */
    public <T extends Result> T ok(Call call, Class<T> type) {
        Result r = call(call);
        if (r instanceof Result.Failure f) {
            fail(call + " failed: " + f.code() + " " + f.message());
        }
        return assertInstanceOf(type, r, call::toString);
    }

    /** Sends a call that must fail with {@code code}; returns the failure. */
    public Result.Failure fails(Call call, ErrorCode code) {
        Result.Failure f = fails(call);
        assertEquals(code, f.code(), () -> call + ": " + f.message());
        return f;
    }

    /** Sends a call that must fail, with a message; returns the failure. */
    public Result.Failure fails(Call call) {
        Result r = call(call);
        Result.Failure f = assertInstanceOf(Result.Failure.class, r, () -> call + " should have failed, got " + r);
        assertTrue(f.message() != null && !f.message().isBlank(), () -> call + " failed without saying why");
        return f;
    }

    /** The reading of one execute of a command, which must be answered (with any status). */
    public Reading read(String sensorId, String commandId, Map<String, String> arguments) {
        return ok(new Call.Execute(sensorId, commandId, arguments), Result.ReadingResult.class).reading();
    }

    /** Sets up and starts a stream; returns its id. */
    public long stream(String sensorId, String commandId, long intervalMs) {
        long id = ok(new Call.SetupStream(sensorId, commandId, Map.of(), intervalMs), Result.StreamHandle.class)
                .streamId();
        ok(new Call.StartStream(id), Result.Ack.class);
        return id;
    }

    /** Waits until a stream has delivered {@code n} frames; returns the first {@code n}. */
    public List<StreamData> frames(long streamId, int n) {
        return awaitPushed(StreamData.class, d -> d.streamId() == streamId, n, "frames of stream " + streamId);
    }

    /** Waits until {@code n} events that match {@code filter} came; returns the first {@code n}. */
    public List<Event> events(Predicate<Event> filter, int n, String what) {
        return awaitPushed(EventNotice.class, e -> filter.test(e.event()), n, what).stream()
                .map(EventNotice::event).toList();
    }

    /** The events that came so far and match {@code filter}. */
    public List<Event> eventsSoFar(Predicate<Event> filter) {
        synchronized (pushed) {
            return pushed.stream().filter(m -> m instanceof EventNotice e && filter.test(e.event()))
                    .map(m -> ((EventNotice) m).event()).toList();
        }
    }

    private <T extends Message> List<T> awaitPushed(Class<T> type, Predicate<T> filter, int n, String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        synchronized (pushed) {
            while (true) {
                List<T> found = new ArrayList<>();
                for (Message m : pushed) {
                    if (type.isInstance(m) && filter.test(type.cast(m))) {
                        found.add(type.cast(m));
                    }
                }
                if (found.size() >= n) {
                    return found.subList(0, n);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("waited " + WAIT_MS + " ms for " + n + " " + what + "; got "
                            + found.size() + ": " + found);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(pushed, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted waiting for " + what, e);
                }
            }
        }
    }

    private <T> T await(String what, CompletableFuture<T> future) {
        try {
            return future.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the agent did not answer " + what + " within " + WAIT_MS + " ms");
        } catch (ExecutionException e) {
            throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        }
    }

    @Override
    public void close() {
        session.closeByCaller();
    }
}
