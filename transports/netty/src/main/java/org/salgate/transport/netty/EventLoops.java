package org.salgate.transport.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.ChannelGroupFuture;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Creates and stops the event loop groups of this transport, and of the HTTP and gRPC transports,
 * also on Netty, on the I/O mechanism a {@link NettyIo} names.
 */
public final class EventLoops {

    /** Stopping waits this long for tasks already queued; a stopping transport takes no new work. */
    public static final long SHUTDOWN_QUIET_MILLIS = 0;
    /** Upper bound on how long stopping a group may take. */
    public static final long SHUTDOWN_TIMEOUT_MILLIS = 2_000;

    private EventLoops() {}

    public static EventLoopGroup create(NettyIo io, int threads, String name, boolean daemon) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, daemon), io.handlerFactory());
    }

    /**
     * The event loop of one client connection: a {@link TurnTakingEventLoop}, whose waiting callers
     * run it themselves, where the mechanism's I/O handler may change threads (epoll, NIO), and a
     * one-thread group otherwise.
     */
    public static EventLoopGroup createClient(NettyIo io, String name) {
        IoHandlerFactory factory = io.handlerFactory();
        if (factory.isChangingThreadSupported()) {
            return TurnTakingEventLoop.start(factory, name);
        }
        return create(io, 1, name, true);
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

    /** Whether the calling thread belongs to {@code group}, where waiting on it would deadlock. */
    public static boolean inGroup(EventLoopGroup group) {
        for (EventExecutor executor : group) {
            if (executor.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Stops a server's listening channel, then closes its connections, waiting up to
     * {@code waitMillis} for each unless called from one of {@code groups}, where waiting would
     * never end. The groups are left running for the caller to stop.
     */
    public static void stopServer(Channel serverChannel, ChannelGroup connections, long waitMillis,
                                  EventLoopGroup... groups) {
        boolean wait = true;
        for (EventLoopGroup group : groups) {
            wait &= !inGroup(group);
        }
        if (serverChannel != null) {
            ChannelFuture unbound = serverChannel.close();
            if (wait) {
                unbound.awaitUninterruptibly(waitMillis);
            }
        }
        ChannelGroupFuture closing = connections.close();
        if (wait) {
            closing.awaitUninterruptibly(waitMillis);
        }
    }

    /** Stops a group promptly; waits for its threads unless called from one of them. */
    public static void shutdown(EventLoopGroup group) {
        if (group == null) {
            return;
        }
        group.shutdownGracefully(SHUTDOWN_QUIET_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        if (!inGroup(group)) {
            group.terminationFuture().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS + 500);
        }
    }
}
