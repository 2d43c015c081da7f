package org.salgate.bench.scale;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * TLS handshakes in memory, between a throwaway server engine and a client engine that pins its
 * certificate, both made with the project's {@link TlsConfig}. A client process runs
 * {@link #WARM_UP_HANDSHAKES} of them before it reports ready, so that the JVM's TLS code is loaded,
 * initialized and partly compiled before the first real handshake: the first handshakes of 40
 * freshly started client JVMs run all at once on 2 cores, against the agent's 10 s hello timeout.
 * In the runs of docs/bench/2026-11-26-scale-tls, that timeout still closed 4 of 10,000 sessions
 * with one warm-up handshake, and 2 with five.
 */
final class TlsWarmUp {

    /** How many handshakes a client process runs before it reports ready. */
    static final int WARM_UP_HANDSHAKES = 5;

    private static final int MAX_TURNS = 100;

    private TlsWarmUp() {}

    /**
     * Runs {@link #WARM_UP_HANDSHAKES} handshakes.
     *
     * @return the protocol the engines of the last one agreed on
     * @throws IOException if one does not finish
     */
    static String warmUp() throws IOException {
        String protocol = null;
        for (int i = 0; i < WARM_UP_HANDSHAKES; i++) {
            protocol = handshakeInMemory();
        }
        return protocol;
    }

    /**
     * Runs one handshake.
     *
     * @return the protocol the two engines agreed on
     * @throws IOException if it does not finish
     */
    static String handshakeInMemory() throws IOException {
        Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1"), 1);
        SSLEngine server = TlsConfig.server(identity).serverEngine();
        SSLEngine client = TlsConfig.clientPinned(Certificates.fingerprint(identity.certificate()))
                .clientEngine("127.0.0.1", 0);
        int packet = 4 * Math.max(server.getSession().getPacketBufferSize(), client.getSession().getPacketBufferSize());
        int app = Math.max(server.getSession().getApplicationBufferSize(),
                client.getSession().getApplicationBufferSize());
        ByteBuffer toServer = ByteBuffer.allocate(packet);
        ByteBuffer toClient = ByteBuffer.allocate(packet);
        ByteBuffer plain = ByteBuffer.allocate(app);
        client.beginHandshake();
        server.beginHandshake();
        for (int turn = 0; turn < MAX_TURNS; turn++) {
            boolean moved = turn(client, toServer, toClient, plain);
            moved |= turn(server, toClient, toServer, plain);
            if (finished(client) && finished(server)) {
                return client.getSession().getProtocol();
            }
            if (!moved) {
                throw new IOException("the in-memory TLS handshake stalled: client " + client.getHandshakeStatus()
                        + ", server " + server.getHandshakeStatus());
            }
        }
        throw new IOException("the in-memory TLS handshake did not finish in " + MAX_TURNS + " turns");
    }

    private static boolean finished(SSLEngine engine) {
        return engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING;
    }

    /**
     * One engine's turn: it runs its tasks, writes records into {@code out} and reads the peer's
     * from {@code in} (both left in write mode) until it waits for the peer.
     *
     * @return whether it did anything
     */
    private static boolean turn(SSLEngine engine, ByteBuffer out, ByteBuffer in, ByteBuffer plain)
            throws SSLException {
        boolean moved = false;
        while (true) {
            HandshakeStatus status = engine.getHandshakeStatus();
            switch (status) {
                case NEED_TASK -> {
                    for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
                        task.run();
                    }
                }
                case NEED_WRAP -> {
                    SSLEngineResult r = engine.wrap(ByteBuffer.allocate(0), out);
                    if (r.getStatus() != SSLEngineResult.Status.OK) {
                        return moved;
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    in.flip();
                    SSLEngineResult r = engine.unwrap(in, plain);
                    in.compact();
                    plain.clear();
                    if (r.getStatus() != SSLEngineResult.Status.OK
                            || r.bytesConsumed() == 0 && r.getHandshakeStatus() == status) {
                        return moved;
                    }
                }
                default -> {
                    return moved;
                }
            }
            moved = true;
        }
    }
}
