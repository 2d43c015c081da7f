package org.salgate.transport.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The I/O under the transports on Netty (netty, http, grpc): Java NIO, on event loop groups of
 * Netty's {@link NioIoHandler}, with their channels ({@code NioSocketChannel},
 * {@code NioServerSocketChannel}) on one buffer allocator.
 */
public final class NettyIo {

    /**
     * The buffer allocator of every channel: Netty's pooled allocator, not its default adaptive one,
     * which in a JVM of 512 MB heap or less pools buffers of up to about 16 KB only and gives each
     * larger one a fresh zeroed direct buffer. On the pooled allocator the http transport streamed
     * 20-80 KB messages to 100 clients 2.3-3.3x faster (docs/performance.md, "The Netty-based
     * transports on Netty's pooled allocator").
     */
    static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

    /** How long stopping a group may take; a stopping transport takes no new work. */
    private static final long SHUTDOWN_MILLIS = 2_000;

    private NettyIo() {}

    /** Names the I/O, for the transports' descriptions. */
    public static String describeCurrent() {
        return "Java NIO";
    }

    /** A group of {@code threads} event loops (0: Netty's default), its threads named after {@code name}. */
    public static EventLoopGroup group(int threads, String name, boolean daemon) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, daemon), NioIoHandler.newFactory());
    }

    /** Whether the calling thread is one of {@code group}'s, where waiting on the group would never end. */
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
        group.shutdownGracefully(0, SHUTDOWN_MILLIS, TimeUnit.MILLISECONDS);
        if (!inGroup(group)) {
            group.terminationFuture().awaitUninterruptibly(SHUTDOWN_MILLIS + 500);
        }
    }
}
