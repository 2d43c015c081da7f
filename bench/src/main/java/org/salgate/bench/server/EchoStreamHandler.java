package org.salgate.bench.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;

/**
 * The transport-level bench service: no agent logic, so only the transport is measured. Answers
 * a hello, echoes values and readings, and pushes byte-payload streams (see {@link BenchProtocol})
 * with backpressure until the client stops them.
 */
public final class EchoStreamHandler implements ServerHandler {

    private final String serverId;
    private final ExecutorService pushers;
    private final AtomicLong streamIds = new AtomicLong();
    private final Map<Long, SessionStreams> sessions = new ConcurrentHashMap<>();

    /** Streams of one session; the session's single writability listener wakes them all. */
    private static final class SessionStreams {
        final Map<Long, PushStream> streams = new ConcurrentHashMap<>();

        void wakeAll() {
            streams.values().forEach(PushStream::schedule);
        }
    }

    /**
     * @param serverId the id put in hello replies
     * @param pushers the threads that push stream frames; owned by the caller
     */
    public EchoStreamHandler(String serverId, ExecutorService pushers) {
        this.serverId = serverId;
        this.pushers = pushers;
    }

    @Override
    public void sessionOpened(Session session) {
        SessionStreams s = new SessionStreams();
        sessions.put(session.id(), s);
        session.setWritabilityListener(s::wakeAll);
    }

    @Override
    public void messageReceived(Session session, Message message) {
        if (message instanceof Hello) {
            session.send(HelloReply.accept(serverId));
        } else if (message instanceof Request r) {
            session.send(new Response(r.id(), answer(session, r.call())));
        }
    }

    private Result answer(Session session, Call call) {
        SessionStreams mine = sessions.get(session.id());
        if (call instanceof Call.Echo e) {
            return new Result.Echoed(e.payload());
        } else if (call instanceof Call.EchoReading e) {
            return new Result.ReadingResult(e.reading());
        } else if (call instanceof Call.SetupStream s) {
            Integer size = parseSize(s.arguments().get(BenchProtocol.SIZE_ARG));
            if (size == null) {
                return new Result.Failure(ErrorCode.INVALID_ARGUMENT, "argument '" + BenchProtocol.SIZE_ARG
                        + "' must be a byte count 0.." + BenchProtocol.MAX_PAYLOAD_BYTES);
            }
            long id = streamIds.incrementAndGet();
            mine.streams.put(id, new PushStream(session, id, size, pushers));
            return new Result.StreamHandle(id);
        } else if (call instanceof Call.StartStream s) {
            PushStream p = mine.streams.get(s.streamId());
            if (p == null) {
                return unknownStream(s.streamId());
            }
            p.start();
            return Result.ack();
        } else if (call instanceof Call.StopStream s) {
            PushStream p = mine.streams.remove(s.streamId());
            if (p == null) {
                return unknownStream(s.streamId());
            }
            p.stop();
            return Result.ack();
        }
        return new Result.Failure(ErrorCode.UNSUPPORTED, "the bench echo service answers only echo and stream calls, not "
                + call.getClass().getSimpleName());
    }

    private static Result unknownStream(long id) {
        return new Result.Failure(ErrorCode.UNKNOWN_STREAM, "no stream " + id + " on this connection");
    }

    private static Integer parseSize(String s) {
        try {
            int n = Integer.parseInt(s);
            return n >= 0 && n <= BenchProtocol.MAX_PAYLOAD_BYTES ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public void sessionClosed(Session session, Throwable cause) {
        SessionStreams s = sessions.remove(session.id());
        if (s != null) {
            s.streams.values().forEach(PushStream::stop);
        }
    }
}
