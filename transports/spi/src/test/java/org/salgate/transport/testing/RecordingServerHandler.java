package org.salgate.transport.testing;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;

/** Accepts every hello, answers echo requests, and records what happened. */
public class RecordingServerHandler implements ServerHandler {

    public final BlockingQueue<Session> opened = new LinkedBlockingQueue<>();
    public final List<Message> received = new CopyOnWriteArrayList<>();
    public final CompletableFuture<Throwable> closed = new CompletableFuture<>();

    @Override
    public void sessionOpened(Session session) {
        opened.add(session);
    }

    @Override
    public void messageReceived(Session session, Message message) {
        received.add(message);
        if (message instanceof Hello) {
            session.send(HelloReply.accept("test-agent"));
        } else if (message instanceof Request r && r.call() instanceof org.salgate.model.Call.Echo e) {
            session.send(new Response(r.id(), new Result.Echoed(e.payload())));
        }
    }

    @Override
    public void sessionClosed(Session session, Throwable cause) {
        closed.complete(cause);
    }
}
