package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.SalClient;
import org.salgate.transport.TransportProvider;

/**
 * What a peer that connects and never speaks, or connects over and over until the agent runs out
 * of descriptors, costs the agent: the agent program runs as a child JVM (see
 * {@link AgentProcess}; Linux, as it reads {@code /proc}) and a normal client must still be
 * served promptly. A transport's test extends this class and implements {@link #provider()}; a
 * blocking transport states the threads it keeps per connection in
 * {@link #threadsPerIdleConnection()}.
 */
public abstract class AbstractHostilePeerConformanceTest {

    /** Idle connections held open at once. */
    protected static final int IDLE_CONNECTIONS = 2_000;
    /** How long accepting them all may take; a listen backlog below the burst took 14 to 27 s. */
    protected static final Duration ACCEPT_BOUND = Duration.ofSeconds(10);
    /** How long a normal client may take to connect and get two answers while they are held. */
    protected static final Duration SERVED_PROMPTLY = Duration.ofSeconds(5);
    /** Threads the agent may start beyond its per-connection threads (timers, a client's session). */
    protected static final int THREAD_SLACK = 40;
    /** The descriptor limit ({@code ulimit -n}) of the agent in the exhaustion test. */
    protected static final int DESCRIPTOR_LIMIT = 320;
    /**
     * Lines the agent may print while it cannot accept: a warning when it starts and a line when it
     * ends (and room for a session or two that fail to start), not one per failed attempt.
     */
    protected static final int EXHAUSTION_LOG_BOUND = 40;

    /** The transport under test. */
    protected abstract TransportProvider provider();

    /** The most lines the agent may print while out of descriptors; see {@link #EXHAUSTION_LOG_BOUND}. */
    protected int exhaustionLogBound() {
        return EXHAUSTION_LOG_BOUND;
    }

    /** Threads the transport keeps per open connection: 0 for the non-blocking ones. */
    protected int threadsPerIdleConnection() {
        return 0;
    }

    /** What a connection may cost in resident memory before threads: its objects and read buffer. */
    protected static final long RESIDENT_BYTES_PER_CONNECTION = 64 * 1024;
    /** What a thread blocked in a read may cost: the stack pages it touched and the JVM's own record. */
    protected static final long RESIDENT_BYTES_PER_THREAD = 64 * 1024;

    /**
     * How much the agent's resident memory may grow per idle connection: the connection's own cost
     * and that of the threads the transport keeps for it.
     */
    protected long residentBytesPerIdleConnection() {
        return RESIDENT_BYTES_PER_CONNECTION + threadsPerIdleConnection() * RESIDENT_BYTES_PER_THREAD;
    }

    private SalClient client(int port) throws IOException {
        return SalClient.builder().transport(provider()).host("127.0.0.1").port(port).clientName("normal")
                .connectTimeout(Duration.ofSeconds(5)).requestTimeout(Duration.ofSeconds(10)).connect();
    }

    /** Connects a normal client, has it served and closes it; returns how long that took. */
    private Duration serve(int port) throws IOException {
        long start = System.nanoTime();
        try (SalClient client = client(port)) {
            assertFalse(Await.result("list sensors", client.listSensors()).isEmpty(), "the agent lists no sensor");
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static long mib(long bytes) {
        return bytes / (1024 * 1024);
    }

    @Test
    @Timeout(180)
    void twoThousandIdleConnectionsAreAcceptedQuicklyAndANormalClientIsServedPromptly() throws Exception {
        String name = provider().name();
        try (AgentProcess agent = AgentProcess.start(name, 0); IdleConnections idle = new IdleConnections()) {
            serve(agent.port()); // loads what serving needs before the baseline
            long rssBefore = agent.residentBytes();
            long threadsBefore = agent.threads();

            long start = System.nanoTime();
            assertEquals(IDLE_CONNECTIONS, idle.burst(agent.port(), IDLE_CONNECTIONS, 60_000),
                    "connections the " + name + " agent's host completed");
            Await.until(() -> "the " + name + " agent to accept " + IDLE_CONNECTIONS + " connections ("
                    + accepted(idle, agent) + " accepted and open)",
                    Duration.ofSeconds(60), () -> accepted(idle, agent) == IDLE_CONNECTIONS);
            Duration accepted = Duration.ofNanos(System.nanoTime() - start);
            Duration served = serve(agent.port());
            long rssDuring = agent.residentBytes();
            long threadsDuring = agent.threads();

            idle.close();
            long threadBound = threadsBefore + THREAD_SLACK;
            Await.until(() -> "the " + name + " agent's threads to end with the connections",
                    Duration.ofSeconds(60), () -> threads(agent) <= threadBound);
            serve(agent.port());
            long rssAfter = agent.residentBytes();
            long threadsAfter = agent.threads();

            System.out.printf("hostile peers [%s]: %d idle connections accepted in %d ms; a normal client served in"
                            + " %d ms; agent RSS %d / %d / %d MiB and threads %d / %d / %d before / during / after%n",
                    name, IDLE_CONNECTIONS, accepted.toMillis(), served.toMillis(), mib(rssBefore), mib(rssDuring),
                    mib(rssAfter), threadsBefore, threadsDuring, threadsAfter);
            assertTrue(accepted.compareTo(ACCEPT_BOUND) <= 0, "accepting " + IDLE_CONNECTIONS + " connections took "
                    + accepted.toMillis() + " ms, more than " + ACCEPT_BOUND.toMillis());
            assertTrue(served.compareTo(SERVED_PROMPTLY) <= 0, "a normal client took " + served.toMillis()
                    + " ms among " + IDLE_CONNECTIONS + " idle connections");
            long threadsAllowed = threadsBefore + (long) threadsPerIdleConnection() * IDLE_CONNECTIONS + THREAD_SLACK;
            assertTrue(threadsDuring <= threadsAllowed, threadsDuring + " threads for " + IDLE_CONNECTIONS
                    + " idle connections; the bound is " + threadsAllowed);
            long rssAllowed = residentBytesPerIdleConnection() * IDLE_CONNECTIONS;
            assertTrue(rssDuring - rssBefore <= rssAllowed, "the agent's RSS grew by " + mib(rssDuring - rssBefore)
                    + " MiB for " + IDLE_CONNECTIONS + " idle connections; the bound is " + mib(rssAllowed) + " MiB");
        }
    }

    @Test
    @Timeout(180)
    void acceptingResumesAfterTheAgentRanOutOfDescriptors() throws Exception {
        String name = provider().name();
        try (AgentProcess agent = AgentProcess.start(name, DESCRIPTOR_LIMIT); IdleConnections idle = new IdleConnections()) {
            serve(agent.port());
            int linesBefore = agent.outputLines().size();
            idle.untilRefused(agent.port(), DESCRIPTOR_LIMIT + 200, 2_000);
            Await.until(() -> "the " + name + " agent to run out of descriptors (" + descriptors(agent) + " of "
                    + DESCRIPTOR_LIMIT + ")", Duration.ofSeconds(30), () -> descriptors(agent) >= DESCRIPTOR_LIMIT - 8);
            Thread.sleep(2_000); // the accept loop meets EMFILE again and again meanwhile
            List<String> duringExhaustion = agent.outputLines();
            int printed = duringExhaustion.size() - linesBefore;
            idle.close();

            Duration served = serve(agent.port());
            System.out.printf("hostile peers [%s]: out of descriptors (limit %d), then a normal client served %d ms "
                    + "after they were freed; %d lines logged meanwhile%n", name, DESCRIPTOR_LIMIT, served.toMillis(),
                    printed);
            assertTrue(agent.isAlive(), "the agent died");
            assertTrue(printed <= exhaustionLogBound(), "the agent printed " + printed + " lines while out of "
                    + "descriptors: " + duringExhaustion.subList(linesBefore, Math.min(duringExhaustion.size(),
                    linesBefore + 10)));
            serve(agent.port());
        }
    }

    private static long accepted(IdleConnections idle, AgentProcess agent) {
        try {
            return idle.acceptedBy(agent.port());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the kernel's socket tables", e);
        }
    }

    private static long descriptors(AgentProcess agent) {
        try {
            return agent.descriptors();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the descriptors of " + agent, e);
        }
    }

    private static long threads(AgentProcess agent) {
        try {
            return agent.threads();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the threads of " + agent, e);
        }
    }
}
