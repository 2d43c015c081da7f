package org.salgate.transport.grpc;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.transport.netty.NettyIo;

/**
 * The gRPC transport (grpc-java on Netty, on the netty transport's event loops). The agent serves
 * two services of {@code salgate_service.proto}: {@code SalSession}, one bidirectional stream per
 * client carrying the salgate frames (what {@link #createClient} speaks), and {@code Sal}, the SAL
 * API as typed calls for programs in any language. Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 */
public final class GrpcTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "grpc";

    /**
     * Server and client property: which executor runs gRPC's callbacks, {@value #EXECUTOR_DIRECT}
     * (the default: on the connection's Netty event loop) or {@value #EXECUTOR_POOL} (grpc-java's
     * default cached thread pool). See the README's gRPC section for the measurement behind the
     * default.
     */
    public static final String EXECUTOR = "grpc.executor";
    public static final String EXECUTOR_DIRECT = "direct";
    public static final String EXECUTOR_POOL = "pool";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        try {
            Class.forName("io.grpc.netty.NettyServerBuilder", false, getClass().getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Override
    public String description() {
        return "gRPC (HTTP/2): the session as a bidirectional stream, and the SAL API as typed calls for any language; on "
                + NettyIo.describeCurrent();
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
    static boolean directExecutor(java.util.Map<String, String> properties) {
        String value = properties.getOrDefault(EXECUTOR, EXECUTOR_DIRECT);
        if (value.equals(EXECUTOR_DIRECT)) {
            return true;
        }
        if (value.equals(EXECUTOR_POOL)) {
            return false;
        }
        throw new IllegalArgumentException(EXECUTOR + " must be '" + EXECUTOR_DIRECT + "' or '" + EXECUTOR_POOL
                + "', got '" + value + "'");
    }
}
