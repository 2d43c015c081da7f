package org.salgate.bench.scale;

import java.time.Duration;

import org.salgate.bench.server.BenchServerMain;
import org.salgate.bench.workload.Payload;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.transport.TransportProvider;

/**
 * One connection of the process's transport before the client process reports ready: to a
 * throwaway echo server of the same transport in this JVM, on loopback (the transport bench's
 * service, {@link BenchServerMain#startEchoService}), with a hello and
 * {@link #WARM_UP_CALLS} echo calls. A process's first connection otherwise loads and initializes
 * the transport's client (Netty's classes and its native epoll library, say) and the wire codec's
 * schema, and runs them cold, between the TCP connect and the hello; and the first connections of
 * 40 freshly started client JVMs meet on 2 cores at once, against the agent's 10 s hello timeout.
 * Without this warm-up, in a 10,000-session run on netty (docs/bench/2026-11-27-scale), that
 * timeout closed 33 of the 40 processes' first connections; MINA's lost none in the same run.
 */
final class ConnectionWarmUp {

    /** The echo calls made on the warm-up connection. */
    static final int WARM_UP_CALLS = 200;

    private ConnectionWarmUp() {}

    /**
     * Starts the server, connects, completes the hello and the calls, and closes both.
     *
     * @return the calls answered
     * @throws Exception if the server does not start, the connection or its hello fails, or a call
     *     is not answered as an echo within {@code timeout}
     */
    static int warmUp(TransportProvider provider, Duration timeout) throws Exception {
        try (BenchServerMain.EchoService server = BenchServerMain.startEchoService(provider, null, false);
             TransportChannel channel = TransportChannel.connect(provider, server.port(), 0, timeout)) {
            Payload payload = Payload.integer();
            for (int i = 0; i < WARM_UP_CALLS; i++) {
                channel.call(payload);
            }
            return WARM_UP_CALLS;
        }
    }
}
