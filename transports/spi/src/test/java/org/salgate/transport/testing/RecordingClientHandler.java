package org.salgate.transport.testing;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import org.salgate.transport.ClientHandler;
import org.salgate.wire.Message;

/** Queues what the client receives. */
public class RecordingClientHandler implements ClientHandler {

    public final BlockingQueue<Message> received = new LinkedBlockingQueue<>();
    public final CompletableFuture<Throwable> closed = new CompletableFuture<>();

    @Override
    public void messageReceived(Message message) {
        received.add(message);
    }

    @Override
    public void closed(Throwable cause) {
        closed.complete(cause);
    }
}
