package org.salgate.transport.grpc.service;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.salgate.transport.MemoryBudget;

/**
 * The server's connections, each a {@link Connection}, made as gRPC's listening channel accepts
 * them, and handed to the budget of each call ({@link CallBudget}). gRPC keeps its Netty channels
 * to itself: this handler, on the listening channel ahead of the acceptor the server bootstrap adds,
 * sees each accepted channel before gRPC does, and as an interceptor it finds a call's connection by
 * its transport's remote address, unique among the open connections of one listening socket.
 */
@ChannelHandler.Sharable
public final class Connections extends ChannelInboundHandlerAdapter implements ServerInterceptor {

    private final MemoryBudget budget;
    private final Map<SocketAddress, Connection> open = new ConcurrentHashMap<>();

    /** Connections whose accounts are in {@code budget}. */
    public Connections(MemoryBudget budget) {
        this.budget = budget;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Channel child && child.remoteAddress() != null) {
            SocketAddress remote = child.remoteAddress();
            Connection connection = new Connection(child, budget);
            open.put(remote, connection);
            child.closeFuture().addListener(f -> open.remove(remote, connection));
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * Installed on the server ahead of every service: gives each call's budget the call, serialized
     * so that the budget may cut it, and its connection, and tells it when the stream turns ready.
     * The stubs ask gRPC for a message only once the service has started, so the budget has both
     * before any message is read.
     */
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        CallBudget callBudget = CallBudget.current();
        SerializedCall<Q, R> serialized = new SerializedCall<>(call, callBudget);
        SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        callBudget.start(serialized, remote == null ? null : open.get(remote));
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(serialized, headers)) {
            @Override
            public void onReady() {
                callBudget.ready();
                super.onReady();
            }
        };
    }

    /**
     * One HTTP/2 connection: its Netty channel and its account in the server's memory budget, which
     * every call on it draws on for what gRPC holds of it ({@link CallBudget}). The budget evicting
     * the account, or refusing it a take, closes the connection, and with it all its calls.
     */
    static final class Connection {
        private final Channel channel;
        final String remote;
        final MemoryBudget.Account account;

        private Connection(Channel channel, MemoryBudget budget) {
            this.channel = channel;
            this.remote = String.valueOf(channel.remoteAddress());
            this.account = budget.open(this, this::close);
            channel.closeFuture().addListener(f -> account.close());
        }

        /**
         * Closes the socket, later and on the connection's event loop: the caller may be inside gRPC's
         * handling of this very connection, holding a call's locks. The close starts below every handler
         * of the channel's pipeline, gRPC's HTTP/2 handler among them, whose own close waits for the open
         * streams to end (they will not: their peer is the one being closed); gRPC then ends every call as
         * for a connection lost. Once the budget refused a take or evicted the account (which it logs,
         * naming this connection), nothing more is held for it.
         */
        void close() {
            channel.eventLoop().execute(() -> {
                ChannelHandlerContext first = channel.pipeline().firstContext();
                if (first != null) {
                    first.close();
                } else {
                    channel.close();
                }
            });
        }

        @Override
        public String toString() {
            return remote + " (gRPC)";
        }
    }
}
