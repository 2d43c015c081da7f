package org.salgate.transport.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * The buffer allocator of every channel the transports on Netty open: Netty's pooled allocator,
 * not its default adaptive one, which in a JVM of 512 MB heap or less pools buffers of up to about
 * 16 KB only and gives each larger one a fresh zeroed direct buffer. On the pooled allocator the
 * http transport streamed 20-80 KB messages to 100 clients 2.3-3.3x faster (docs/performance.md,
 * "The Netty-based transports on Netty's pooled allocator").
 */
final class Buffers {

    static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

    private Buffers() {
    }
}
