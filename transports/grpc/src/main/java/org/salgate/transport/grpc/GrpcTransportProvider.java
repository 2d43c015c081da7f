package org.salgate.transport.grpc;

import java.util.List;
import java.util.Map;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProperties;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.transport.grpc.service.CallBudget;

/**
 * The gRPC transport (grpc-java on Netty, on the netty transport's event loops). The agent serves
 * the services of {@code salgate_service.proto}: {@code SalSession}, one bidirectional stream per
 * client carrying the salgate frames (what {@link #createClient} speaks), and {@code Sal}, the SAL
 * API as typed calls for programs in any language (both of salgate-transport-grpc-service). Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 *
 * <p><b>What a peer may cost the server.</b> Each connection may have at most
 * {@value #DEFAULT_MAX_CONCURRENT_STREAMS} calls open at once ({@value #MAX_CONCURRENT_STREAMS}) and
 * reset at most {@value #DEFAULT_MAX_RESETS_PER_SECOND} streams a second ({@value #MAX_RESETS_PER_SECOND};
 * past it the connection gets GOAWAY ENHANCE_YOUR_CALM and is closed, against the rapid-reset attack).
 * What the calls of a connection hold (messages being received, answers and pushed readings not yet
 * taken) draws on the server's memory budget ({@code --max-buffered-bytes}); the connection holding
 * the most is closed when the budget is reached. A call whose credentials are not admitted yet (a
 * typed call without a valid bearer token, a session stream before its hello is accepted) may send
 * messages of at most {@value #UNADMITTED_MESSAGE_BYTES} bytes. A connection with no call open is
 * closed after the hello timeout ({@code --hello-timeout-ms}, at least 1 s); one that does not
 * complete its TLS handshake and HTTP/2 preface within 10 s is closed. Messages above the frame
 * limit ({@code --max-frame-bytes}) and metadata above {@value #MAX_METADATA_BYTES} bytes are refused.
 * Set the properties with the agent's {@code --transport-property NAME=VALUE}.
 */
public final class GrpcTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "grpc";

    /**
     * Server and client property: which executor runs gRPC's callbacks, {@value #EXECUTOR_DIRECT}
     * (the default: on the connection's Netty event loop) or {@value #EXECUTOR_POOL} (grpc-java's
     * default cached thread pool). docs/performance.md ("Typed calls or the session stream, and
     * which executor") has the measurement behind the default.
     */
    public static final String EXECUTOR = "grpc.executor";
    public static final String EXECUTOR_DIRECT = "direct";
    public static final String EXECUTOR_POOL = "pool";

    /** Server property: the most calls (HTTP/2 streams) one connection may have open at once; default {@value #DEFAULT_MAX_CONCURRENT_STREAMS}. */
    public static final String MAX_CONCURRENT_STREAMS = "grpc.maxConcurrentStreams";
    public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 100;

    /**
     * Server property: the most streams one connection may reset (RST_STREAM) in a second, those the
     * server resets for its errors included; past it the connection is closed. Default
     * {@value #DEFAULT_MAX_RESETS_PER_SECOND}: a client cancels a call now and then, an attacker
     * thousands of times a second.
     */
    public static final String MAX_RESETS_PER_SECOND = "grpc.maxResetsPerSecond";
    public static final int DEFAULT_MAX_RESETS_PER_SECOND = 200;

    /** The largest message of a call whose credentials are not admitted yet; see {@link CallBudget#UNADMITTED_MESSAGE_BYTES}. */
    public static final int UNADMITTED_MESSAGE_BYTES = CallBudget.UNADMITTED_MESSAGE_BYTES;

    /** The most bytes of metadata (headers) a call may send: grpc-java's default, stated. */
    public static final int MAX_METADATA_BYTES = 8 * 1024;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return SingleUseServer.classesPresent(getClass(), "io.grpc.netty.NettyServerBuilder");
    }

    @Override
    public String description() {
        return "gRPC (HTTP/2): the session as a bidirectional stream, and the SAL API as typed calls for any language; on "
                + "Java NIO";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new GrpcTransportServer(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new GrpcTransportClient(options);
    }

    /** Whether {@code properties} ask for the direct executor (the default). */
    static boolean directExecutor(Map<String, String> properties) {
        return TransportProperties.oneOf(properties, EXECUTOR, List.of(EXECUTOR_DIRECT, EXECUTOR_POOL))
                .equals(EXECUTOR_DIRECT);
    }
}
