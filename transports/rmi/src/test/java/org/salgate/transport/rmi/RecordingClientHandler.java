package org.salgate.transport.rmi;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import org.salgate.transport.ClientHandler;
import org.salgate.wire.Message;

/** Queues what the client receives. */
class RecordingClientHandler implements ClientHandler {

    final BlockingQueue<Message> received = new LinkedBlockingQueue<>();
    final CompletableFuture<Throwable> closed = new CompletableFuture<>();

    @Override
    public void messageReceived(Message message) {
        received.add(message);
    }

    @Override
    public void closed(Throwable cause) {
        closed.complete(cause);
    }
}
