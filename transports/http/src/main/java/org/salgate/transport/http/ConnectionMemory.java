package org.salgate.transport.http;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.salgate.transport.MemoryBudget;

/**
 * What one HTTP connection holds of the server's {@link MemoryBudget} (bodies, unsent answers,
 * unfinished WebSocket messages): on an account of its own until the
 * WebSocket handshake, then on its session's. The budget evicts it by closing the channel.
 */
final class ConnectionMemory {

    private MemoryBudget.Account account;

    ConnectionMemory(MemoryBudget budget, Channel channel) {
        MemoryBudget.Account own = budget.open(new Object() {
            @Override
            public String toString() {
                return "HTTP client " + channel.remoteAddress();
            }
        }, channel::close);
        this.account = own;
        channel.closeFuture().addListener(f -> own.close());
    }

    /** Takes {@code n} bytes; false when they do not fit and this connection holds the most: the caller closes it. */
    boolean take(long n) {
        return account.take(n);
    }

    void give(long n) {
        account.give(n);
    }

    /** The connection became a WebSocket session, counted on {@code session}'s account from now on. */
    void handOver(MemoryBudget.Account session) {
        if (session == null || session == account) {
            return;
        }
        MemoryBudget.Account own = account;
        account = session;
        own.close();
    }

    /** Why a connection is closed when the budget cannot hold what it sends: {@code whose} holds the most. */
    String full(String whose) {
        return "the agent's connections hold its whole memory budget of " + account.budget().maxBytes() + " bytes ("
                + MemoryBudget.OPTION + ") and " + whose + " the most";
    }

    /** The 503 of a connection whose request or answer the budget cannot hold, {@code advice} saying what to do. */
    FullHttpResponse overloaded(String advice) {
        return Replies.error(HttpResponseStatus.SERVICE_UNAVAILABLE, "OVERLOADED", full("this connection") + "; " + advice);
    }
}
