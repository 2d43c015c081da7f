package org.salgate.transport.grpc.service;

import io.grpc.Attributes;
import io.grpc.Grpc;
import io.grpc.ServerTransportFilter;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ReflectiveChannelFactory;
import io.netty.channel.ServerChannel;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.salgate.transport.MemoryBudget;

/**
 * The server's connections, each a {@link GrpcConnection}, made as gRPC's listening channel accepts
 * them and handed to gRPC's calls through their transport attributes. gRPC keeps its Netty channels
 * to itself: the listening channel, made by {@link #serverChannels}, sees each accepted channel
 * before gRPC does, and {@link #transportFilter()} finds it again by its remote address (unique
 * among the open connections of one listening socket) once gRPC's transport for it is ready.
 */
public final class Connections {

    private final MemoryBudget budget;
    private final Map<SocketAddress, GrpcConnection> open = new ConcurrentHashMap<>();

    /** Connections whose accounts are in {@code budget}. */
    public Connections(MemoryBudget budget) {
        this.budget = budget;
    }

    /** Makes listening channels of {@code type} that register each connection they accept. */
    public ChannelFactory<ServerChannel> serverChannels(Class<? extends ServerChannel> type) {
        ReflectiveChannelFactory<? extends ServerChannel> make = new ReflectiveChannelFactory<>(type);
        Accepted accepted = new Accepted();
        return () -> {
            ServerChannel channel = make.newChannel();
            // First in the pipeline: ahead of the acceptor the server bootstrap adds as it registers the channel.
            channel.pipeline().addLast("salgate-connections", accepted);
            return channel;
        };
    }

    /** Puts each ready transport's {@link GrpcConnection} among its attributes, as {@link GrpcConnection#KEY}. */
    public ServerTransportFilter transportFilter() {
        return new ServerTransportFilter() {
            @Override
            public Attributes transportReady(Attributes attributes) {
                SocketAddress remote = attributes.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
                GrpcConnection connection = remote == null ? null : open.get(remote);
                return connection == null ? attributes
                        : attributes.toBuilder().set(GrpcConnection.KEY, connection).build();
            }
        };
    }

    @ChannelHandler.Sharable
    private final class Accepted extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Channel child && child.remoteAddress() != null) {
                SocketAddress remote = child.remoteAddress();
                GrpcConnection connection = new GrpcConnection(child, budget);
                open.put(remote, connection);
                child.closeFuture().addListener(f -> open.remove(remote, connection));
            }
            ctx.fireChannelRead(msg);
        }
    }
}
