package org.salgate.transport.grpc.service;

import io.grpc.Attributes;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import org.salgate.transport.MemoryBudget;

/**
 * One HTTP/2 connection of the server: its Netty channel and its account in the server's memory
 * budget, which every call on it draws on for what gRPC holds of it (unfinished and undelivered
 * inbound messages, unary answers, what waits for a stream that is not ready). The budget evicting
 * the account, or refusing it a take, closes the connection, and with it all its calls.
 */
final class GrpcConnection {

    /** The connection of a call, among its transport attributes ({@link Connections#transportFilter()}). */
    static final Attributes.Key<GrpcConnection> KEY = Attributes.Key.create("salgate-grpc-connection");

    private final Channel channel;
    private final String remote;
    private final MemoryBudget.Account account;
    /** The context of {@link Head}, nearest the socket; set as the channel registers. */
    private volatile ChannelHandlerContext head;

    GrpcConnection(Channel channel, MemoryBudget budget) {
        this.channel = channel;
        this.remote = String.valueOf(channel.remoteAddress());
        this.account = budget.open(this, this::close);
        channel.pipeline().addFirst("salgate-connection", new Head());
        channel.closeFuture().addListener(f -> account.close());
    }

    /** What this connection's calls hold, in the server's memory budget. */
    MemoryBudget.Account account() {
        return account;
    }

    /**
     * Closes the socket, later and on the connection's event loop: the caller may be inside gRPC's
     * handling of this very connection, holding a call's locks. The close starts below gRPC's HTTP/2
     * handler, whose own close waits for the open streams to end (they will not: their peer is the
     * one being closed); gRPC then ends every call as for a connection lost. Once the budget refused
     * a take or evicted the account (which it logs, naming this connection), nothing more is held for it.
     */
    void close() {
        channel.eventLoop().execute(() -> {
            ChannelHandlerContext ctx = head;
            if (ctx != null) {
                ctx.close();
            } else {
                channel.close();
            }
        });
    }

    @Override
    public String toString() {
        return remote + " (gRPC)";
    }

    /** Passes everything through; only its context is used, to close the socket from below gRPC. */
    private final class Head extends ChannelDuplexHandler {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            head = ctx;
        }
    }
}
