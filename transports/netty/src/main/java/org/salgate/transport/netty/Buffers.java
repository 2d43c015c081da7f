package org.salgate.transport.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * The buffer allocator of every channel the Netty-based transports open (netty and http, server and
 * client): Netty's pooled allocator, named here rather than left to Netty's default.
 *
 * <p>Netty 4.2's default, its adaptive allocator, goes into a low-memory mode in a JVM whose
 * maximum heap is 512 MB or less (a small gateway, or the bench's servers): there it pools buffers
 * of up to about 16 KB only, and gives every larger one a chunk of its own, a fresh direct buffer
 * that the JDK zeroes and frees again. Every batch the netty transport
 * frames and every message of 20 KB or more the http transport hands the socket is such a buffer.
 * Streaming 20-80 KB messages to 100 clients, 37 % of the http server's CPU samples
 * were in allocating them, zeroing and first-touch page faults the largest part (docs/performance.md,
 * "HTTP's streaming past 30 clients"). The pooled allocator
 * serves buffers up to its chunk size (4 MB) from chunks it keeps, whatever the heap.
 */
final class Buffers {

    static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

    private Buffers() {
    }
}
