package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.session.SessionLimits;
import org.salgate.client.SalClient;
import org.salgate.transport.TransportProvider;
import org.salgate.model.Call;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.ErrorCode;
import org.salgate.model.Result;
import org.salgate.model.Value;

/**
 * One memory budget for all of an agent's connections on a framed transport, seen from outside:
 * the agent runs as a child JVM ({@link AgentProcess}) with {@code --max-buffered-bytes} of
 * {@link #BUDGET_BYTES}, and peers that never read what they ask for, or that hold unfinished
 * frames ({@link FramedAttacks}), must not take its memory past the budget, keep other clients from
 * being served, or flood its log. Before the budget each session could queue up to its own cap
 * (65 MiB by default) for a peer that did not read, and 20 such peers ran a 256 MiB agent out of
 * heap.
 *
 * <p>The agent's heap (256 MiB) is committed and touched from its start ({@code -Xms256m
 * -XX:+AlwaysPreTouch}), so the baseline RSS counts all of it: what the heap holds shows as
 * {@code OutOfMemoryError} and clients left unserved, and RSS grows only with what lives outside
 * it, such as Netty's direct buffers of the bytes queued for a peer. A transport's test extends
 * this class and implements {@link #provider()}.
 */
public abstract class AbstractFramedMemoryBudgetTest {

    /** The agent's memory budget in these tests: a quarter of its heap, its default at -Xmx256m. */
    protected static final long BUDGET_BYTES = 64L * 1024 * 1024;
    /**
     * What the agent's RSS may exceed its baseline by beyond the budget: direct buffers that Netty's
     * pool keeps beside those of the budget's bytes, native memory of the collector and compiler
     * under load, and the stacks of the attackers' and clients' sessions; 119 MiB in all was
     * measured on the netty agent during the flood.
     */
    protected static final long RSS_MARGIN_BYTES = 128L * 1024 * 1024;
    /** Peers that flood requests without reading, at once. */
    protected static final int ATTACKERS = 20;
    /** Normal clients that must be served while they do. */
    protected static final int CLIENTS = 20;
    /**
     * Requests a second each attacker sends: paced, so that the test measures memory rather than
     * who wins two shared cores, yet 20 attackers ask for some 90 MB of sensor lists a second: the
     * budget is full within a second, and 20 sessions' caps of 65 MiB within 15 s.
     */
    protected static final int REQUESTS_PER_SECOND = 1_600;
    /** How long the flood lasts: the clients start a quarter in, and have {@link #SERVED_WITHIN} to be served. */
    protected static final Duration FLOOD = Duration.ofSeconds(15);
    /** How long a normal client may take to be greeted and served during the flood. */
    protected static final Duration SERVED_WITHIN = Duration.ofSeconds(10);
    /** How long the agent may take to serve again, and to be back within its bound, once the attackers left. */
    protected static final Duration RECOVERY = Duration.ofSeconds(30);
    /**
     * Lines a second the agent may print while attacked: the budget's (two causes, each at most
     * once a second) and a few more rate-limited ones, not one per session or per request.
     */
    protected static final int LOG_LINES_PER_SECOND = 10;
    /** Connections that each hold an unfinished frame of {@link #HELD_BYTES}. */
    protected static final int HOARDERS = 20;
    /** What each hoarder sends of a frame twice as long. */
    protected static final int HELD_BYTES = 6 * 1024 * 1024;

    /** The start of MemoryBudget's lines, logged when it closes a connection. */
    private static final String BUDGET_LINE = "MemoryBudget - closing the connection from";

    /** The transport under test. */
    protected abstract TransportProvider provider();

    /**
     * Whether the transport keeps reading a peer that does not read its answers, so that they queue
     * and the budget must close it. The socket transport does not: its reader writes the answers it
     * makes itself, and blocks in that write, so a peer that stops reading stops being read and its
     * requests wait in the kernel's buffers.
     */
    protected boolean queuesForAPeerThatStopsReading() {
        return true;
    }

    private AgentProcess startAgent() throws IOException, InterruptedException {
        return AgentProcess.start(provider().name(), 0, List.of("-Xms256m", "-XX:+AlwaysPreTouch"),
                List.of("--max-buffered-bytes", Long.toString(BUDGET_BYTES)));
    }

    private SalClient client(int port, String name) throws IOException {
        return SalClient.builder().transport(provider()).host("127.0.0.1").port(port).clientName(name)
                .connectTimeout(SERVED_WITHIN).requestTimeout(SERVED_WITHIN).connect();
    }

    /** Connects a client, has it greeted and served (the sensor list) and closes it; returns how long that took. */
    private Duration serve(int port, String name) throws IOException {
        long start = System.nanoTime();
        try (SalClient client = client(port, name)) {
            assertFalse(Await.result(name + "'s sensor list", SERVED_WITHIN, client.listSensors()).isEmpty(),
                    "the agent lists no sensor");
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** The agent's RSS once it has served a few clients: what its bound is counted from. */
    private long baseline(AgentProcess agent) throws IOException, InterruptedException {
        for (int i = 0; i < 3; i++) {
            serve(agent.port(), "warm-up");
        }
        Thread.sleep(500);
        return agent.residentBytes();
    }

    @Test
    @Timeout(150)
    void clientsFloodingRequestsWithoutReadingAreHeldToOneBudgetAndEveryoneElseIsServed() throws Exception {
        String name = provider().name();
        try (AgentProcess agent = startAgent()) {
            int port = agent.port();
            long rssBefore = baseline(agent);
            long bound = rssBefore + BUDGET_BYTES + RSS_MARGIN_BYTES;
            int linesBefore = agent.outputLines().size();
            ExecutorService pool = Executors.newCachedThreadPool();
            try (RssSampler rss = new RssSampler(agent)) {
                long floodStart = System.nanoTime();
                Future<FramedAttacks.Outcome> flood = pool.submit(() -> FramedAttacks.floodWithoutReading(port,
                        ATTACKERS, FramedAttacks.LIST_SENSORS, REQUESTS_PER_SECOND, FLOOD));
                Thread.sleep(FLOOD.toMillis() / 4); // the attackers' answers fill the budget meanwhile

                List<Future<Duration>> clients = new ArrayList<>();
                for (int i = 0; i < CLIENTS; i++) {
                    String client = "normal-" + i;
                    clients.add(pool.submit(() -> serve(port, client)));
                }
                long slowest = 0;
                for (int i = 0; i < CLIENTS; i++) {
                    slowest = Math.max(slowest, served(clients.get(i), "normal-" + i, agent).toMillis());
                }
                boolean servedDuringFlood = System.nanoTime() - floodStart < FLOOD.toNanos();
                FramedAttacks.Outcome outcome = flood.get(FLOOD.toSeconds() + 30, TimeUnit.SECONDS);
                double floodSeconds = (System.nanoTime() - floodStart) / 1e9;
                long rssMax = rss.max();
                List<String> printed = linesSince(agent, linesBefore);

                long recoveryStart = System.nanoTime();
                Await.until(() -> "the " + name + " agent to serve a client again after the flood", RECOVERY,
                        () -> servedQuietly(port));
                long recoveredMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - recoveryStart);
                long[] rssAfter = {rss(agent)};
                Await.until(() -> "the " + name + " agent's RSS to be back within " + mib(bound) + " MiB after the "
                        + "flood (" + mib(rssAfter[0]) + " MiB now)", RECOVERY, () -> {
                            rssAfter[0] = rss(agent);
                            return rssAfter[0] <= bound;
                        });

                System.out.printf("memory budget [%s]: %d attackers flooded for %.1f s (%s); %d clients served, the "
                                + "slowest in %d ms; agent RSS %d MiB before, at most %d MiB during, %d MiB after "
                                + "(budget %d MiB, margin %d MiB); %d lines logged, %d of them the budget's; served "
                                + "again %d ms after the flood%n",
                        name, ATTACKERS, floodSeconds, outcome, CLIENTS, slowest, mib(rssBefore), mib(rssMax),
                        mib(rssAfter[0]), mib(BUDGET_BYTES), mib(RSS_MARGIN_BYTES), printed.size(),
                        budgetLines(printed), recoveredMillis);
                assertTrue(agent.isAlive(), "the agent died");
                assertTrue(servedDuringFlood, "the clients were served only after the flood ended");
                assertNoOutOfMemory(printed);
                assertTrue(rssMax <= bound, "the agent's RSS reached " + mib(rssMax) + " MiB from " + mib(rssBefore)
                        + " MiB with a budget of " + mib(BUDGET_BYTES) + " MiB; the bound is " + mib(bound) + " MiB");
                if (queuesForAPeerThatStopsReading()) {
                    assertTrue(outcome.closedByAgent() > 0, "the agent closed none of the " + outcome.connections()
                            + " connections that never read");
                    assertBudgetLogged(printed, floodSeconds);
                }
                assertLogBounded(printed, floodSeconds);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    @Timeout(120)
    void unfinishedFramesAndQueuedAnswersAreHeldToTheSameBudget() throws Exception {
        String name = provider().name();
        try (AgentProcess agent = startAgent()) {
            int port = agent.port();
            long rssBefore = baseline(agent);
            long bound = rssBefore + BUDGET_BYTES + RSS_MARGIN_BYTES;
            int linesBefore = agent.outputLines().size();
            long fit = BUDGET_BYTES / HELD_BYTES; // each holds at least what it sent
            int closedAtOnce;
            int closedAfterFlood = 0;
            Duration served;
            long rssMax;
            try (RssSampler rss = new RssSampler(agent);
                 FramedAttacks.Hoard hoard = FramedAttacks.hoardUnfinishedFrames(port, HOARDERS, 2 * HELD_BYTES,
                         HELD_BYTES)) {
                Thread.sleep(1_000);
                closedAtOnce = hoard.closedByAgent();
                served = serve(port, "normal"); // whole frames cost the budget nothing between reads
                if (queuesForAPeerThatStopsReading()) {
                    // Answers queued for peers that do not read draw on the same budget: the hoarders, holding
                    // the most, make room for them.
                    FramedAttacks.floodWithoutReading(port, 4, FramedAttacks.LIST_SENSORS, REQUESTS_PER_SECOND,
                            Duration.ofSeconds(3));
                    closedAfterFlood = hoard.closedByAgent();
                }
                rssMax = rss.max();
            }
            List<String> printed = linesSince(agent, linesBefore);
            System.out.printf("memory budget [%s]: of %d connections holding unfinished frames of %d MiB, %d closed at "
                            + "once and %d once a flood's answers queued; a client served in %d ms meanwhile; agent "
                            + "RSS %d MiB before, at most %d MiB during (budget %d MiB, margin %d MiB); %d lines "
                            + "logged, %d of them the budget's%n",
                    name, HOARDERS, mib(HELD_BYTES), closedAtOnce, closedAfterFlood, served.toMillis(), mib(rssBefore),
                    mib(rssMax), mib(BUDGET_BYTES), mib(RSS_MARGIN_BYTES), printed.size(), budgetLines(printed));
            assertTrue(closedAtOnce >= HOARDERS - fit, "the agent closed " + closedAtOnce + " of " + HOARDERS
                    + " connections holding " + mib(HELD_BYTES) + " MiB each; at most " + fit + " fit in its budget of "
                    + mib(BUDGET_BYTES) + " MiB");
            assertTrue(closedAtOnce < HOARDERS, "every connection was closed, although some fit in the budget");
            if (queuesForAPeerThatStopsReading()) {
                assertTrue(closedAfterFlood > closedAtOnce, "no connection holding an unfinished frame was closed to "
                        + "make room for answers queued for others: inbound and outbound are not one budget");
            }
            assertNoOutOfMemory(printed);
            assertTrue(rssMax <= bound, "the agent's RSS reached " + mib(rssMax) + " MiB from " + mib(rssBefore)
                    + " MiB; the bound is " + mib(bound) + " MiB");
            assertBudgetLogged(printed, 10);
            assertLogBounded(printed, 10);
            serve(port, "after");
        }
    }

    @Test
    @Timeout(60)
    void aLargeFrameBeforeTheHelloClosesTheConnectionAtOnceAndAfterTheHelloItIsTaken() throws Exception {
        int large = 4 * SessionLimits.PRE_HELLO_MAX_FRAME_BYTES;
        try (AgentProcess agent = startAgent()) {
            int port = agent.port();
            assertTrue(FramedAttacks.closedForAFrameBeforeTheHello(port, large, 1024, Duration.ofSeconds(5)),
                    "a connection announcing a frame of " + large + " bytes before its hello was left open");
            assertTrue(FramedAttacks.closedForAFrameBeforeTheHello(port, SessionLimits.PRE_HELLO_MAX_FRAME_BYTES + 1,
                    1024, Duration.ofSeconds(5)), "a frame one byte over the allowance before the hello was taken");

            // The same frame right behind the hello, in the same write, is taken: the hello raised the limit.
            // (An echo, which the agent reads and answers with its refusal: the probe is not the SAL API.)
            Value payload = Value.of(new byte[large]);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                socket.setSoTimeout(10_000);
                ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());
                byte[] hello = codec.encode(Hello.of(Codecs.defaultCodec().name(), "pipelining"));
                byte[] echo = codec.encode(new Request(1, new Call.Echo(payload)));
                OutputStream out = socket.getOutputStream();
                out.write(ByteBuffer.allocate(8 + hello.length + echo.length).putInt(hello.length).put(hello)
                        .putInt(echo.length).put(echo).array());
                out.flush();
                DataInputStream in = new DataInputStream(socket.getInputStream());
                assertTrue(assertInstanceOf(HelloReply.class, read(in, codec)).accepted(), "the hello was refused");
                Response answer = assertInstanceOf(Response.class, read(in, codec),
                        "a large frame right after the hello was not answered");
                assertEquals(1, answer.id());
                assertEquals(ErrorCode.UNSUPPORTED, assertInstanceOf(Result.Failure.class, answer.result()).code());
            }
            serve(port, "after");
        }
    }

    /** A normal client's time to be served, failing if it was not served in time. */
    private static Duration served(Future<Duration> client, String name, AgentProcess agent) throws Exception {
        try {
            Duration took = client.get(SERVED_WITHIN.toSeconds() * 2, TimeUnit.SECONDS);
            assertTrue(took.compareTo(SERVED_WITHIN) <= 0, name + " took " + took.toMillis() + " ms to be served");
            return took;
        } catch (ExecutionException e) {
            throw new AssertionError(name + " was not served during the flood (agent RSS " + mib(rss(agent))
                    + " MiB): " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError(name + " was not served within " + SERVED_WITHIN.toSeconds() * 2 + " s", e);
        }
    }

    private boolean servedQuietly(int port) {
        try {
            serve(port, "after");
            return true;
        } catch (IOException | AssertionError e) {
            return false;
        }
    }

    private static Message read(DataInputStream in, ConnectionCodec codec) throws Exception {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return codec.decode(frame, 0, frame.length);
    }

    /** Samples the agent's RSS every 200 ms until closed, keeping the largest. */
    private static final class RssSampler implements AutoCloseable {
        private final AtomicLong max = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        RssSampler(AgentProcess agent) {
            thread = new Thread(() -> {
                while (running.get()) {
                    try {
                        max.accumulateAndGet(agent.residentBytes(), Math::max);
                        Thread.sleep(200);
                    } catch (IOException | InterruptedException e) {
                        return; // the agent is gone: the test says so
                    }
                }
            }, "rss-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        long max() {
            return max.get();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(2_000);
        }
    }

    private static long rss(AgentProcess agent) {
        try {
            return agent.residentBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the RSS of " + agent + "; did it die?", e);
        }
    }

    private static long mib(long bytes) {
        return bytes >> 20;
    }

    /** The lines the agent printed from line {@code from} on. */
    private static List<String> linesSince(AgentProcess agent, int from) throws IOException {
        List<String> lines = agent.outputLines();
        return lines.subList(Math.min(from, lines.size()), lines.size());
    }

    private static long budgetLines(List<String> lines) {
        return lines.stream().filter(l -> l.contains(BUDGET_LINE)).count();
    }

    private static List<String> sample(List<String> lines) {
        return lines.subList(0, Math.min(10, lines.size()));
    }

    private static void assertNoOutOfMemory(List<String> printed) {
        List<String> oom = printed.stream().filter(l -> l.contains("OutOfMemoryError")).toList();
        assertTrue(oom.isEmpty(), "the agent ran out of memory: " + sample(oom));
    }

    /** The budget's cause was logged, and not more than once a second for each of its two causes. */
    private static void assertBudgetLogged(List<String> printed, double seconds) {
        long budget = budgetLines(printed);
        assertTrue(budget > 0, "the agent did not log why it closed connections (no line with '" + BUDGET_LINE
                + "'): " + sample(printed));
        long allowed = 2 * (long) Math.ceil(seconds + 1);
        assertTrue(budget <= allowed, "the budget's line was logged " + budget + " times in " + seconds
                + " s; at most " + allowed + " expected");
    }

    /** The agent logged a bounded number of lines, not one per connection or request. */
    private static void assertLogBounded(List<String> printed, double seconds) {
        long allowed = (long) Math.ceil((seconds + 1) * LOG_LINES_PER_SECOND);
        assertTrue(printed.size() <= allowed, "the agent logged " + printed.size() + " lines in " + seconds + " s"
                + "; at most " + allowed + " expected: " + sample(printed));
    }
}
