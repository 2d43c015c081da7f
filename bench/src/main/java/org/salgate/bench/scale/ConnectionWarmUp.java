package org.salgate.bench.scale;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.salgate.bench.server.EchoStreamHandler;
import org.salgate.bench.workload.Payload;
import org.salgate.bench.workload.TransportChannel;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * One connection of the process's transport before the client process reports ready: to a
 * throwaway echo server of the same transport in this JVM, on loopback, with a hello and
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
        ExecutorService pushers = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "scale-warm-up-push");
            t.setDaemon(true);
            return t;
        });
        TransportServer server = provider.createServer(ServerOptions.builder().host("127.0.0.1").port(0).build());
        try {
            server.start(new EchoStreamHandler("scale-warm-up", pushers));
            Payload payload = Payload.integer();
            try (TransportChannel channel = TransportChannel.connect(provider, server.localAddress().getPort(), 0,
                    timeout)) {
                for (int i = 0; i < WARM_UP_CALLS; i++) {
                    channel.call(payload);
                }
            }
            return WARM_UP_CALLS;
        } finally {
            server.close();
            pushers.shutdownNow();
        }
    }
}
