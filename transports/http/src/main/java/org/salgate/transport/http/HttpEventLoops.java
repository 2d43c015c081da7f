package org.salgate.transport.http;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.TimeUnit;

/** The NIO event loop groups of this transport: made, and stopped promptly. */
final class HttpEventLoops {

    private static final long STOP_TIMEOUT_MILLIS = 2_000;

    private HttpEventLoops() {}

    static EventLoopGroup create(int threads, String name, boolean daemon) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, daemon),
                NioIoHandler.newFactory());
    }

    /** Whether the calling thread is one of the group's, where waiting for it would never end. */
    static boolean inGroup(EventLoopGroup group) {
        if (group == null) {
            return false;
        }
        for (EventExecutor executor : group) {
            if (executor.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    static void shutdown(EventLoopGroup group) {
        if (group == null) {
            return;
        }
        group.shutdownGracefully(0, STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        if (!inGroup(group)) {
            group.terminationFuture().awaitUninterruptibly(STOP_TIMEOUT_MILLIS + 500);
        }
    }
}
