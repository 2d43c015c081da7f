package org.salgate.transport.grpc;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.Status;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.salgate.transport.Ports;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.TransportProperties;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.transport.grpc.proto.EncodedFrame;
import org.salgate.transport.grpc.proto.SalSessionGrpc;
import org.salgate.transport.grpc.service.CallBudget;
import org.salgate.transport.grpc.service.Connections;
import org.salgate.transport.grpc.service.SalService;
import org.salgate.transport.netty.NettyIo;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.transport.MemoryBudget;

/**
 * A gRPC server with the {@code SalSession} and {@code Sal} services. Messages above the frame
 * limit are refused by gRPC itself (RESOURCE_EXHAUSTED). What the agent pushes waits in each
 * session's (or typed call's) outbound queue, with the server's bound, and goes to gRPC while HTTP/2
 * flow control says the stream is ready ({@link #streamReadyThreshold}).
 *
 * <p>What peers may cost it (see {@link GrpcTransportProvider}): calls per connection and resets per
 * second are gRPC's limits; the queues, and what gRPC holds of each connection's calls
 * ({@link CallBudget}, on each connection's account, {@link Connections}), draw on one
 * {@link MemoryBudget}; idle and half-open connections are closed by gRPC's idle and handshake timeouts.
 */
final class GrpcTransportServer extends SingleUseServer {

    /** How long closing waits for the calls to end before cancelling them. */
    private static final long CLOSE_GRACE_MILLIS = 2_000;
    /** Each stream's HTTP/2 window, fixed (no BDP auto-tuning) so a stalled reader holds at most this much. */
    static final int FLOW_CONTROL_WINDOW_BYTES = 1024 * 1024;
    /**
     * What gRPC may buffer of a call's answers before the stream says it is not ready (its ready
     * threshold), at most; what waits beyond it waits in the call's own queue, counted exactly in the
     * memory budget. gRPC does not say how much of it it holds while the stream is ready, so that
     * much per stream (at 100 streams, 6.4 MiB a connection) is all the budget does not count; while
     * the stream is not ready it counts the answers sent since it was last ready ({@link CallBudget}).
     */
    static final int MAX_STREAM_READY_THRESHOLD_BYTES = 64 * 1024;

    /** The ready threshold of a server stream: the high-water mark, at most {@link #MAX_STREAM_READY_THRESHOLD_BYTES}. */
    static int streamReadyThreshold(ServerOptions options) {
        return Math.min(options.writeHighWaterBytes(), MAX_STREAM_READY_THRESHOLD_BYTES);
    }

    private final ServerOptions options;
    private final MemoryBudget budget;
    private final AtomicLong sessionIds = new AtomicLong();
    private final Set<GrpcSession> sessions = ConcurrentHashMap.newKeySet();
    private final Set<BridgeSession> calls = ConcurrentHashMap.newKeySet();
    private Server server;
    private EventLoopGroup boss;
    private EventLoopGroup workers;

    GrpcTransportServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.budget = new MemoryBudget(options.limits().maxBufferedBytes());
    }

    @Override
    protected Bound bind(ServerHandler handler) throws IOException {
        Connections connections = new Connections(budget);
        InetSocketAddress address = new InetSocketAddress(options.host(), options.port());
        NettyServerBuilder builder = (options.tls() == null ? NettyServerBuilder.forAddress(address)
                        : NettyServerBuilder.forAddress(address, credentials(options.tls())))
                .maxInboundMessageSize(options.maxFrameBytes())
                .maxInboundMetadataSize(GrpcTransportProvider.MAX_METADATA_BYTES)
                .flowControlWindow(FLOW_CONTROL_WINDOW_BYTES)
                .maxConcurrentCallsPerConnection(TransportProperties.positiveInt(options.properties(),
                        GrpcTransportProvider.MAX_CONCURRENT_STREAMS, GrpcTransportProvider.DEFAULT_MAX_CONCURRENT_STREAMS))
                .maxRstFramesPerWindow(TransportProperties.positiveInt(options.properties(),
                        GrpcTransportProvider.MAX_RESETS_PER_SECOND, GrpcTransportProvider.DEFAULT_MAX_RESETS_PER_SECOND), 1)
                // A connection with no call open has said no hello: it goes after the hello timeout
                // (gRPC allows no less than 1 s), with a GOAWAY a client reconnects after.
                .maxConnectionIdle(options.limits().helloTimeout().toMillis(), TimeUnit.MILLISECONDS)
                // Until the TLS handshake, the HTTP/2 preface and the client's SETTINGS are done.
                .handshakeTimeout(TlsConfig.HANDSHAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .addStreamTracerFactory(CallBudget.factory(handler, streamReadyThreshold(options)))
                .intercept(connections)
                .addService(sessionService(handler))
                .addService(new SalService(handler, options, budget, sessionIds, calls));
        if (GrpcTransportProvider.directExecutor(options.properties())) {
            // Safe: every callback only hands a message to the agent's handler, which never blocks.
            builder.directExecutor();
        }
        // On the same I/O as the netty and http transports.
        boss = NettyIo.group(1, "salgate-grpc-accept", false);
        workers = NettyIo.group(options.ioThreads(), "salgate-grpc-io", false);
        String where = "grpc server " + options.host() + ":" + options.port();
        builder.bossEventLoopGroup(boss).workerEventLoopGroup(workers).channelFactory(() -> {
            ServerChannel channel = new NioServerSocketChannel();
            // ahead of the acceptor the server bootstrap adds as it registers the channel
            channel.pipeline().addLast("salgate-connections", connections)
                    .addLast("salgate-accept-pacer", NettyIo.acceptPacer(where));
            return channel;
        });
        GrpcLogs.install();
        server = builder.build();
        try {
            server.start();
        } catch (IOException e) {
            server = null;
            shutdownGroups();
            throw bindFailure(options.host() + ":" + options.port(), e);
        }
        InetSocketAddress bound = (InetSocketAddress) server.getListenSockets().get(0);
        return new Bound(bound, () -> stop(bound.getPort()));
    }

    /** {@code SalSession}: each call is one {@link GrpcSession} on the agent's handler. */
    private BindableService sessionService(ServerHandler handler) {
        return new SalSessionGrpc.SalSessionImplBase() {
            @Override
            public StreamObserver<EncodedFrame> session(StreamObserver<EncodedFrame> responses) {
                GrpcSession session = new GrpcSession(sessionIds.incrementAndGet(), handler, options, budget,
                        (ServerCallStreamObserver<EncodedFrame>) responses, sessions::remove);
                sessions.add(session);
                session.open();
                return session;
            }
        };
    }

    /** TLS with the config's key, through gRPC's own TLS (which enables TLS 1.3 and 1.2). */
    private static ServerCredentials credentials(TlsConfig tls) {
        return TlsServerCredentials.newBuilder().keyManager(tls.keyManagerFactory().getKeyManagers()).build();
    }

    /** Ends the sessions and calls, stops gRPC and its event loops, and waits for the port to be free. */
    private void stop(int port) {
        Status stopping = Status.UNAVAILABLE.withDescription("the agent is stopping");
        server.shutdown();
        for (GrpcSession session : List.copyOf(sessions)) {
            session.stop(stopping);
        }
        for (BridgeSession call : List.copyOf(calls)) {
            call.close();
        }
        try {
            if (!server.awaitTermination(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                server.shutdownNow().awaitTermination(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.shutdownNow();
        }
        for (GrpcSession session : List.copyOf(sessions)) {
            session.reportEndIfPending();
        }
        shutdownGroups();
        try {
            Ports.awaitReleased(InetAddress.getByName(options.host()), port,
                    Duration.ofMillis(CLOSE_GRACE_MILLIS));
        } catch (IOException e) {
            // an unresolvable host could not have been bound
        }
    }

    private void shutdownGroups() {
        for (EventLoopGroup group : new EventLoopGroup[] {boss, workers}) {
            if (group != null) {
                group.shutdownGracefully(0, CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS).awaitUninterruptibly(CLOSE_GRACE_MILLIS);
            }
        }
    }

    /**
     * Why the server could not listen. gRPC's native transport reports a taken port or a foreign
     * address as its own exception, not the JDK's {@link BindException}; name it as the JDK would,
     * so that callers tell the causes apart as on every other transport.
     */
    static IOException bindFailure(String where, IOException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = String.valueOf(t.getMessage());
            if (t instanceof BindException || m.contains("already in use") || m.contains("assign requested address")) {
                String reason = m.substring(m.lastIndexOf(':') + 1).trim();
                BindException bind = new BindException(reason);
                bind.initCause(e);
                return new IOException("cannot listen on " + where + ": " + reason, bind);
            }
        }
        return new IOException("cannot listen on " + where + ": " + e.getMessage(), e);
    }
}
