package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.wire.Framing;

/**
 * {@link AbstractSessionLimitsTest} plus what raw frames can do to a byte-stream transport: a
 * truncated frame then silence is closed by the hello timeout, and many connections each declaring
 * a maximal frame and sending one byte are closed once the bytes held for unfinished frames would
 * pass the server's bound, while whole frames (a new client's hello, a served client's requests)
 * still get through.
 */
public abstract class AbstractFramedSessionLimitsTest extends AbstractSessionLimitsTest {

    /** The total bound of the test that fills it: room for a few unfinished frames (8 KiB each at least). */
    private static final long SMALL_BUDGET = 128 * 1024;
    private static final int ATTACKERS = 40;

    @Test
    @Timeout(60)
    void aTruncatedFrameThenSilenceIsClosedByTheHelloTimeout() throws Exception {
        Agent agent = agent(o -> o.helloTimeout(SHORT));
        SalClient served = client(agent, "served");
        try (RawConnection raw = new RawConnection(agent.address())) {
            raw.length(100).bytes(new byte[10]);
            assertTrue(raw.closedByPeer(), "a connection holding a truncated frame was left open");
        }
        assertServed(served);
    }

    @Test
    @Timeout(90)
    void unfinishedMaximalFramesPastTheTotalBoundAreClosedAndTheAgentKeepsServing() throws Exception {
        Agent agent = agent(o -> o.maxBufferedBytes(SMALL_BUDGET).helloTimeout(Duration.ofSeconds(60)));
        SalClient served = client(agent, "served");
        InetSocketAddress address = agent.address();
        List<RawConnection> attackers = new ArrayList<>();
        try {
            for (int i = 0; i < ATTACKERS; i++) {
                RawConnection raw = new RawConnection(address);
                attackers.add(raw);
                try {
                    raw.hello().bytes(maximalFrameStart());
                } catch (IOException e) {
                    // closed by the agent already: even its hello's read did not fit the full budget; counted below
                }
            }
            // Each holds at least 8 KiB once read, so at most 16 fit in 128 KiB; the rest are closed.
            int fit = (int) (SMALL_BUDGET / (8 * 1024));
            int[] closedNow = new int[1];
            Await.until(() -> "only " + closedNow[0] + " of " + ATTACKERS + " unfinished 16 MiB frames were closed past"
                    + " a bound of " + SMALL_BUDGET + " bytes", Duration.ofSeconds(20), () -> {
                        closedNow[0] = closedCount(attackers);
                        return closedNow[0] >= ATTACKERS - fit;
                    });
            int closed = closedCount(attackers);
            assertTrue(closed < ATTACKERS, "every attacker was closed, although some fit in the bound");

            // Whole frames cost nothing between reads: the served client and a new one get through.
            assertServed(served);
            assertServed(client(agent, "newcomer"));
        } finally {
            for (RawConnection raw : attackers) {
                raw.close();
            }
        }
        // What the closed connections held was given back: new unfinished frames fit again.
        List<RawConnection> again = new ArrayList<>();
        try {
            Await.until("the attackers' sessions to end", () -> agent.sessionCount() == 2);
            for (int i = 0; i < 4; i++) {
                RawConnection raw = new RawConnection(address);
                again.add(raw);
                raw.hello().bytes(maximalFrameStart());
            }
            Thread.sleep(500);
            assertEquals(0, closedCount(again), "the bound was not given back when connections closed");
        } finally {
            for (RawConnection raw : again) {
                raw.close();
            }
        }
    }

    /** A maximal frame's length and its first byte, sent in one write. */
    private static byte[] maximalFrameStart() {
        return ByteBuffer.allocate(5).putInt(Framing.DEFAULT_MAX_FRAME_BYTES).put((byte) 1).array();
    }

    /** How many of the connections the agent has closed by now; waits at most 1 s in all. */
    private static int closedCount(List<RawConnection> connections) {
        long deadline = System.nanoTime() + 1_000_000_000L;
        int closed = 0;
        for (RawConnection raw : connections) {
            int wait = (int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            try {
                if (raw.closedWithin(Duration.ofMillis(wait))) {
                    closed++;
                }
            } catch (IOException e) {
                closed++; // the socket broke: closed by the agent
            }
        }
        return closed;
    }
}
