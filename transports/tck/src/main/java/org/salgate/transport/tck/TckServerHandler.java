package org.salgate.transport.tck;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.model.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;

/**
 * The server side of the transport-level suite: answers every hello, echoes {@link Call.Echo} and
 * {@link Call.EchoReading}, pushes numbered streams (see {@link TckStreams}) from its own threads
 * while the session is writable, and records everything else for the test to inspect and answer.
 */
public final class TckServerHandler implements ServerHandler, AutoCloseable {

    /** The agent id in every hello reply. */
    public static final String SERVER_ID = "tck-server";

    /** Frames a stream pushes before letting other sessions' streams have the pusher threads. */
    private static final int PUMP_BUDGET = 256;

    private final Map<Long, RecordedSession> sessions = new ConcurrentHashMap<>();
    private final List<RecordedSession> inOrder = new CopyOnWriteArrayList<>();
    private final AtomicLong streamIds = new AtomicLong();
    private final AtomicReference<String> handlerViolation = new AtomicReference<>();
    private final ExecutorService pushers = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "tck-pusher");
        t.setDaemon(true);
        return t;
    });

    @Override
    public void sessionOpened(Session session) {
        RecordedSession recorded = new RecordedSession(session);
        if (sessions.putIfAbsent(session.id(), recorded) != null) {
            handlerViolation.compareAndSet(null, "two sessions opened with id " + session.id());
            return;
        }
        session.setWritabilityListener(() -> {
            recorded.writable();
            pumpLater(recorded);
        });
        inOrder.add(recorded);
    }

    @Override
    public void messageReceived(Session session, Message message) {
        RecordedSession recorded = sessions.get(session.id());
        if (recorded == null) {
            handlerViolation.compareAndSet(null, "a message arrived on session " + session.id() + " before it opened");
            return;
        }
        recorded.messageReceived(message);
        if (message instanceof Hello hello) {
            recorded.helloReceived(hello.clientName());
            session.send(HelloReply.accept(SERVER_ID));
        } else if (message instanceof Request request) {
            answer(recorded, request);
        }
    }

    @Override
    public void sessionClosed(Session session, Throwable cause) {
        RecordedSession recorded = sessions.get(session.id());
        if (recorded == null) {
            handlerViolation.compareAndSet(null, "session " + session.id() + " closed without opening");
            return;
        }
        recorded.sessionClosed(cause);
    }

    private void answer(RecordedSession recorded, Request request) {
        Session session = recorded.session();
        Call call = request.call();
        if (call instanceof Call.Echo echo) {
            session.send(new Response(request.id(), new Result.Echoed(echo.payload())));
        } else if (call instanceof Call.EchoReading echo) {
            session.send(new Response(request.id(), new Result.ReadingResult(echo.reading())));
        } else if (call instanceof Call.SetupStream setup && TckStreams.SENSOR.equals(setup.sensorId())
                && TckStreams.COMMAND.equals(setup.commandId())) {
            long count = Long.parseLong(setup.arguments().getOrDefault("count", "0"));
            int size = Integer.parseInt(setup.arguments().getOrDefault("size", "0"));
            NumberedStream stream = new NumberedStream(streamIds.incrementAndGet(), count, size, recorded);
            recorded.addStream(stream);
            session.send(new Response(request.id(), new Result.StreamHandle(stream.id())));
            pumpLater(recorded);
        }
    }

    private void pumpLater(RecordedSession recorded) {
        try {
            pushers.execute(() -> {
                boolean more = false;
                for (NumberedStream stream : recorded.streams()) {
                    more |= stream.pump(PUMP_BUDGET);
                }
                if (more) {
                    pumpLater(recorded);
                }
            });
        } catch (RejectedExecutionException e) {
            // the handler is closed; nothing more to push
        }
    }

    /** The {@code index}-th session opened (from 0), waiting for it to open. */
    public RecordedSession sessionAt(int index) {
        Await.until("session number " + (index + 1) + " to open", () -> inOrder.size() > index);
        return inOrder.get(index);
    }

    /** The session whose hello named {@code clientName}, waiting for it to arrive. */
    public RecordedSession sessionOf(String clientName) {
        RecordedSession[] found = new RecordedSession[1];
        Await.until("a session with client name " + clientName, () -> {
            for (RecordedSession s : inOrder) {
                if (clientName.equals(s.clientName().getNow(null))) {
                    found[0] = s;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    /** Every session opened so far, in order. */
    public List<RecordedSession> sessions() {
        return List.copyOf(inOrder);
    }

    /** The first contract breach seen across sessions (a call out of order), or null. */
    public String violation() {
        String v = handlerViolation.get();
        if (v != null) {
            return v;
        }
        for (RecordedSession s : inOrder) {
            if (s.orderViolated()) {
                return "session " + s.session().id() + " got a call after it closed or was closed twice";
            }
        }
        return null;
    }

    /** The cause a session closed with, if it has closed. */
    public static Optional<Throwable> causeOf(RecordedSession s) {
        return s.closed().getNow(Optional.empty());
    }

    @Override
    public void close() {
        pushers.shutdownNow();
    }
}
