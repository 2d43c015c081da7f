package org.salgate.transport.grpc;

import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
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
import org.salgate.transport.TransportServer;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.transport.tls.TlsConfig;

/**
 * A gRPC server with the {@code SalSession} and {@code Sal} services. Messages above the frame
 * limit are refused by gRPC itself (RESOURCE_EXHAUSTED); HTTP/2 flow control, with the server's
 * high-water mark as each stream's ready threshold, is the backpressure.
 */
final class GrpcTransportServer implements TransportServer {

    /** How long closing waits for the calls to end before cancelling them. */
    private static final long CLOSE_GRACE_MILLIS = 2_000;
    /** Each stream's HTTP/2 window, fixed (no BDP auto-tuning) so a stalled reader holds at most this much. */
    static final int FLOW_CONTROL_WINDOW_BYTES = 1024 * 1024;

    private final ServerOptions options;
    private final AtomicLong sessionIds = new AtomicLong();
    private final Set<GrpcSession> sessions = ConcurrentHashMap.newKeySet();
    private final Set<BridgeSession> calls = ConcurrentHashMap.newKeySet();
    private Server server;
    private InetSocketAddress bound;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private boolean started;
    private boolean closed;

    GrpcTransportServer(ServerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public synchronized void start(ServerHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        if (started) {
            throw new IllegalStateException("this server was started already; create a new one to start again");
        }
        started = true;
        CallContext context = new CallContext();
        InetSocketAddress address = new InetSocketAddress(options.host(), options.port());
        NettyServerBuilder builder = (options.tls() == null ? NettyServerBuilder.forAddress(address)
                        : NettyServerBuilder.forAddress(address, credentials(options.tls())))
                .maxInboundMessageSize(options.maxFrameBytes())
                .flowControlWindow(FLOW_CONTROL_WINDOW_BYTES)
                .addStreamTracerFactory(StreamStatus.FACTORY)
                .addService(ServerInterceptors.intercept(new SessionService(handler, options.codec(),
                        options.writeHighWaterBytes(), sessionIds, sessions), context))
                .addService(ServerInterceptors.intercept(new SalService(handler, options.codec().name(),
                        options.writeHighWaterBytes(), sessionIds, calls), context));
        if (options.tls() != null) {
            builder.handshakeTimeout(TlsConfig.HANDSHAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        if (GrpcTransportProvider.directExecutor(options.properties())) {
            // Safe: every callback only hands a message to the agent's handler, which never blocks.
            builder.directExecutor();
        }
        if (options.ioThreads() > 0) {
            boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
            workers = new MultiThreadIoEventLoopGroup(options.ioThreads(), NioIoHandler.newFactory());
            builder.bossEventLoopGroup(boss).workerEventLoopGroup(workers).channelType(NioServerSocketChannel.class);
        }
        server = builder.build();
        try {
            server.start();
        } catch (IOException e) {
            server = null;
            shutdownGroups();
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": " + e.getMessage()
                    + "; choose another port or stop what uses it", asBindException(e));
        }
        bound = (InetSocketAddress) server.getListenSockets().get(0);
    }

    /**
     * The failure to bind, as a {@link java.net.BindException} when it is one: grpc's native
     * (epoll) transport reports a taken port as its own IOException ("bind(..) failed ...: Address
     * already in use"), which callers could not tell from other I/O errors.
     */
    private static IOException asBindException(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.BindException) {
                return e;
            }
            String m = String.valueOf(t.getMessage());
            if (m.startsWith("bind(..) failed") && m.contains("Address already in use")) {
                java.net.BindException bind = new java.net.BindException("Address already in use");
                bind.initCause(e);
                return bind;
            }
        }
        return e;
    }

    /** TLS with the config's key, through gRPC's own TLS (which enables TLS 1.3 and 1.2). */
    private static ServerCredentials credentials(TlsConfig tls) {
        return TlsServerCredentials.newBuilder().keyManager(tls.keyManagerFactory().getKeyManagers()).build();
    }

    @Override
    public synchronized InetSocketAddress localAddress() {
        if (bound == null) {
            throw new IllegalStateException("the server is not started");
        }
        return bound;
    }

    @Override
    public synchronized void close() {
        if (closed || !started || server == null) {
            closed = true;
            return;
        }
        closed = true;
        Status stopping = Status.UNAVAILABLE.withDescription("the agent is stopping");
        server.shutdown();
        for (GrpcSession session : List.copyOf(sessions)) {
            session.abort(stopping);
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
            Ports.awaitReleased(InetAddress.getByName(options.host()), bound.getPort(),
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
}
