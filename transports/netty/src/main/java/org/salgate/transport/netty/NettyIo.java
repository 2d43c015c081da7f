package org.salgate.transport.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import org.salgate.transport.AcceptBackoff;
import org.salgate.transport.tls.TlsConfig;

/** The event loops (Netty's {@link NioIoHandler}), buffer allocator, accept pacing and TLS of the transports on Netty. */
public final class NettyIo {

    /**
     * Netty's pooled allocator rather than its adaptive default, which under a 512 MB heap pools
     * only buffers up to about 16 KB (docs/performance.md, "on Netty's pooled allocator").
     */
    static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

    private static final long SHUTDOWN_MILLIS = 2_000;

    private NettyIo() {}

    /** A group of {@code threads} event loops (0: Netty's default), its threads named after {@code name}. */
    public static EventLoopGroup group(int threads, String name, boolean daemon) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, daemon), NioIoHandler.newFactory());
    }

    /** Whether the calling thread is one of {@code group}'s, which must not wait on it. */
    static boolean inGroup(EventLoopGroup group) {
        for (EventExecutor executor : group) {
            if (executor.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    /** Adds a TLS handler on the server's engine first in the pipeline, when {@code tls} is set. */
    public static void addServerTls(Channel ch, TlsConfig tls) {
        if (tls != null) {
            ch.pipeline().addFirst("tls", tls(tls.serverEngine(), TlsConfig.HANDSHAKE_TIMEOUT.toMillis()));
        }
    }

    /**
     * Netty's TLS handler, compacting its buffer after every read rather than every 16 so that large
     * records do not grow it to megabytes ({@code TlsReadBufferTest}; docs/performance.md).
     */
    static SslHandler tls(SSLEngine engine, long handshakeTimeoutMillis) {
        SslHandler handler = new SslHandler(engine);
        handler.setDiscardAfterReads(1);
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        return handler;
    }

    /**
     * Ahead of a listening channel's acceptor: a failed accept (out of descriptors) stops accepting
     * for the {@link AcceptBackoff}'s pause, which logs a run of failures once.
     */
    public static ChannelHandler acceptPacer(String server) {
        AcceptBackoff backoff = new AcceptBackoff(server);
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object child) {
                backoff.accepted();
                ctx.fireChannelRead(child);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                if (!(cause instanceof IOException)) {
                    ctx.fireExceptionCaught(cause);
                    return;
                }
                Channel listening = ctx.channel();
                listening.config().setAutoRead(false);
                listening.eventLoop().schedule(() -> listening.config().setAutoRead(true),
                        backoff.nextPause(cause), TimeUnit.MILLISECONDS);
            }
        };
    }

    /** Stops groups promptly; waits for each one's threads unless called from one of them. */
    public static void shutdown(EventLoopGroup... groups) {
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(0, SHUTDOWN_MILLIS, TimeUnit.MILLISECONDS);
            if (!inGroup(group)) {
                group.terminationFuture().awaitUninterruptibly(SHUTDOWN_MILLIS + 500);
            }
        }
    }
}
