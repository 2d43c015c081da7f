package org.salgate.transport.netty;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Creates and stops the event loop groups of the transports on Netty (netty, http, grpc), on the
 * I/O mechanism a {@link NettyIo} names.
 */
public final class EventLoops {

    /** Upper bound on how long stopping a group may take; a stopping transport takes no new work. */
    private static final long SHUTDOWN_TIMEOUT_MILLIS = 2_000;

    private EventLoops() {}

    public static EventLoopGroup create(NettyIo io, int threads, String name, boolean daemon) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, daemon), io.handlerFactory());
    }

    /**
     * The process's {@link NettyIo#current() mechanism}, for a transport about to start.
     *
     * @throws IOException if {@value NettyIo#PROPERTY} asks for one that does not load here, saying why
     */
    public static NettyIo current() throws IOException {
        try {
            return NettyIo.current();
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e.getCause());
        }
    }

    /** Whether the calling thread belongs to {@code group}, where waiting on it would never end. */
    static boolean inGroup(EventLoopGroup group) {
        for (EventExecutor executor : group) {
            if (executor.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    /** Stops a group promptly; waits for its threads unless called from one of them. */
    public static void shutdown(EventLoopGroup group) {
        if (group == null) {
            return;
        }
        group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        if (!inGroup(group)) {
            group.terminationFuture().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS + 500);
        }
    }
}
