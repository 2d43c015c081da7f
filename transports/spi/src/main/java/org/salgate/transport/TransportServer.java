package org.salgate.transport;

import java.io.IOException;
import java.net.InetSocketAddress;

/** The agent side of a transport: accepts sessions and hands their messages to a {@link ServerHandler}. */
public interface TransportServer extends AutoCloseable {

    /**
     * Binds and starts accepting sessions. Returns once the server listens.
     *
     * @throws IOException if it cannot bind (port in use, bad host)
     */
    void start(ServerHandler handler) throws IOException;

    /** Where the server listens; after {@link #start}, with the real port when port 0 was asked. */
    InetSocketAddress localAddress();

    /**
     * Closes every session (each gets {@link ServerHandler#sessionClosed}) and stops listening.
     * Idempotent; returns when the server's threads have stopped or a short grace period passed.
     */
    @Override
    void close();
}
