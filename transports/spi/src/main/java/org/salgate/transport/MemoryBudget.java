package org.salgate.transport;

import java.util.Comparator;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The bytes all of a server's connections may hold together, inbound and outbound: frames, bodies
 * and messages not yet whole, and answers and stream frames queued for a peer that has not read
 * them yet. Each connection draws on the budget through its own {@link Account}.
 *
 * <p>When a connection's {@link Account#take take} would pass the bound, the connection that holds
 * the most goes first: if that is another one, it is evicted (its bytes leave the count at once,
 * its close action runs, and its later takes fail) and the take is tried again; if it is the taker
 * itself, the take fails and its transport closes it. Either way one line is logged, naming the
 * peer and the bound, at most once a second. So a peer that hoards memory loses its connection, and
 * the small connections of everyone else go on being served.
 *
 * <p>Thread-safe; takes and gives never block. Choosing whom to evict looks at every open account,
 * which happens only when the bound is reached.
 */
public final class MemoryBudget {

    /** The option that sets the bound, named in what is logged. */
    public static final String OPTION = "--max-buffered-bytes";

    private static final RateLimitedLog LOG = new RateLimitedLog(LoggerFactory.getLogger(MemoryBudget.class),
            Level.WARN);

    /**
     * Runs the close actions of evicted connections: never on the taker's thread, which may hold
     * its own connection's locks while the victim's close takes the victim's. Its one thread ends
     * when idle.
     */
    private static final Executor EVICTIONS;

    static {
        ThreadPoolExecutor evictions = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "salgate-budget-evictions");
                    t.setDaemon(true);
                    return t;
                });
        evictions.allowCoreThreadTimeOut(true);
        EVICTIONS = evictions;
    }

    private final long maxBytes;
    private final Set<Account> accounts = ConcurrentHashMap.newKeySet();
    private final Object lock = new Object();
    /** Bytes held by open accounts; guarded by {@link #lock}. */
    private long held;

    public MemoryBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("the memory budget (" + OPTION + ") must be positive, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** The bound, in bytes. */
    public long maxBytes() {
        return maxBytes;
    }

    /** The bytes held now by all the connections together. */
    public long held() {
        synchronized (lock) {
            return held;
        }
    }

    /** Connections with an open account. */
    public int connections() {
        return accounts.size();
    }

    /**
     * Opens the account of one connection.
     *
     * @param peer the connection (its {@code toString()} naming the peer's address), for the log line
     *             that names it
     * @param evict closes the connection when the budget takes its account away; it runs on a thread
     *              of the budget's own, never under a lock of another connection
     */
    public Account open(Object peer, Runnable evict) {
        Account account = new Account(Objects.requireNonNull(peer, "peer"), Objects.requireNonNull(evict, "evict"));
        accounts.add(account);
        return account;
    }

    /** What one connection holds of the budget. Thread-safe. */
    public final class Account implements AutoCloseable {

        /** Named in log lines by its {@code toString()}, read only then (a connection is named once set up). */
        private final Object peer;
        private final Runnable evict;
        /** Guarded by {@link MemoryBudget#lock}. */
        private long bytes;
        /** Guarded by {@link MemoryBudget#lock}: closed by its owner or evicted; takes fail, gives are ignored. */
        private boolean closed;

        private Account(Object peer, Runnable evict) {
            this.peer = peer;
            this.evict = evict;
        }

        /** The budget this account draws on. */
        public MemoryBudget budget() {
            return MemoryBudget.this;
        }

        /** The bytes this connection holds now. */
        public long held() {
            synchronized (lock) {
                return bytes;
            }
        }

        /**
         * Takes {@code n} bytes for this connection. When they do not fit, the connection holding the
         * most is evicted first if it is another one; false (nothing taken) if this connection holds
         * the most, or its account was closed or evicted: its transport then closes it.
         */
        public boolean take(long n) {
            if (n <= 0) {
                return true;
            }
            while (true) {
                Account victim;
                long victimBytes;
                long wouldHold;
                synchronized (lock) {
                    if (closed) {
                        return false;
                    }
                    if (held + n <= maxBytes) {
                        held += n;
                        bytes += n;
                        return true;
                    }
                    wouldHold = bytes + n;
                    victim = largestOther(this);
                    victimBytes = victim == null ? 0 : victim.bytes;
                    if (victimBytes > wouldHold) {
                        victim.closeLocked();
                    }
                }
                // Logged outside the lock, which every connection's takes and gives wait for.
                if (victimBytes <= wouldHold) {
                    LOG.log("refused", "closing the connection from {}: it would hold {} bytes, the most of any "
                                    + "connection, and all of them together would pass the agent's memory budget "
                                    + "of {} bytes ({})", peer, wouldHold, maxBytes, OPTION);
                    return false;
                }
                evicted(victim, victimBytes);
            }
        }

        /** Gives back {@code n} bytes taken earlier; nothing once the account is closed. */
        public void give(long n) {
            if (n <= 0) {
                return;
            }
            synchronized (lock) {
                if (closed) {
                    return;
                }
                long back = Math.min(n, bytes);
                bytes -= back;
                held -= back;
            }
        }

        /** Gives back all this connection holds and takes nothing more: the connection closed. Idempotent. */
        @Override
        public void close() {
            synchronized (lock) {
                closeLocked();
            }
            accounts.remove(this);
        }

        /** Whether the account was closed, by its owner or by an eviction. */
        public boolean isClosed() {
            synchronized (lock) {
                return closed;
            }
        }

        private void closeLocked() {
            if (!closed) {
                closed = true;
                held -= bytes;
                bytes = 0;
            }
        }

        @Override
        public String toString() {
            return "budget account of " + peer;
        }
    }

    /** Takes the closed {@code victim} out and runs its close action on the budget's thread. */
    private void evicted(Account victim, long bytes) {
        accounts.remove(victim);
        LOG.log("evicted", "closing the connection from {}: it holds {} bytes, the most of any connection, "
                + "and all of them together reached the agent's memory budget of {} bytes ({})",
                victim.peer, bytes, maxBytes, OPTION);
        EVICTIONS.execute(() -> {
            try {
                victim.evict.run();
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(MemoryBudget.class).warn("closing the connection from {} failed", victim.peer,
                        e);
            }
        });
    }

    /** The open account other than {@code self} holding the most; guarded by {@link #lock}. */
    private Account largestOther(Account self) {
        // Reads each account's bytes under the lock its writers hold: the figures are consistent.
        return accounts.stream().filter(a -> a != self && !a.closed).max(Comparator.comparingLong(a -> a.bytes))
                .orElse(null);
    }
}
