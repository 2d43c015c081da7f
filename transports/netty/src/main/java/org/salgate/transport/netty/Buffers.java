package org.salgate.transport.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * The buffer allocator of every channel the Netty-based transports open (netty and http, server and
 * client): Netty's pooled allocator, named here rather than left to Netty's default.
 *
 * <p>Netty 4.2's default, its adaptive allocator, goes into a low-memory mode in a JVM whose
 * maximum heap is 512 MB or less (a small gateway, or the bench's servers): there it pools buffers
 * of up to about 16 KB only and gives every larger one a fresh direct buffer, which the JDK zeroes,
 * and frees it again. The netty transport's larger written batches and every message of more than
 * about 16 KB the http transport hands the socket were such buffers. Streaming 20-80 KB messages to
 * 100 clients, 37 % of the http server's CPU samples were in allocating them (docs/performance.md,
 * "HTTP's streaming past 30 clients"); on this allocator HTTP streamed them 2.3-3.3x faster.
 *
 * <p>The pooled allocator serves buffers up to its chunk size (4 MB) from chunks it keeps, two
 * arenas per core, whatever the heap. What that costs, measured: the agent's direct memory held
 * 16.6 MB with 10,000 idle netty sessions, four chunks, against 1.3 MB before. And a chunk that
 * was more than a quarter used is freed when it empties, so a use that fills and empties one again
 * and again pays for a fresh zeroed 4 MB each time: the http client's WebSocket decoder did, and
 * Netty's TLS handler on every TLS client, until {@code WebSocketClientHandler} and
 * {@link TlsHandlers} kept their buffers small.
 */
final class Buffers {

    static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

    private Buffers() {
    }
}
