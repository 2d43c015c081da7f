package org.salgate.transport.http;

import io.netty.channel.Channel;
import org.salgate.transport.MemoryBudget;

/**
 * What one HTTP connection holds of the server's {@link MemoryBudget}: request bodies being
 * received, answers written and not yet sent, messages held while the connection is not read, and,
 * once it is a WebSocket, its messages not yet whole. Until the WebSocket handshake the connection
 * has an account of its own, which the budget closes the connection to take away; from then on it
 * draws on its session's account, so that one account counts all it holds.
 *
 * <p>Runs on the channel's event loop, but for the budget's eviction, which closes the channel.
 */
final class ConnectionMemory {

    private final Channel channel;
    private MemoryBudget.Account account;

    ConnectionMemory(MemoryBudget budget, Channel channel) {
        this.channel = channel;
        MemoryBudget.Account own = budget.open(new Object() {
            @Override
            public String toString() {
                return "HTTP client " + channel.remoteAddress();
            }
        }, channel::close);
        this.account = own;
        channel.closeFuture().addListener(f -> own.close());
    }

    /**
     * Takes {@code n} bytes for this connection; false when they do not fit and this connection
     * holds the most, or its account was taken away: the caller then closes it.
     */
    boolean take(long n) {
        return account.take(n);
    }

    /** Gives back {@code n} bytes taken earlier. */
    void give(long n) {
        account.give(n);
    }

    /** The connection became a WebSocket session: what it holds from now on is counted on {@code session}'s account. */
    void handOver(MemoryBudget.Account session) {
        if (session == null || session == account) {
            return;
        }
        MemoryBudget.Account own = account;
        account = session;
        own.close();
    }

    /** The bound of the budget, for messages. */
    long maxBytes() {
        return account.budget().maxBytes();
    }

    @Override
    public String toString() {
        return "memory of " + channel;
    }
}
