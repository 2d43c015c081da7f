package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.SalClient;
import org.salgate.transport.grpc.GrpcTransportProvider;
import org.salgate.model.Reading;
import org.salgate.model.Value;

/**
 * The grpc agent (the agent jar as a child JVM, see {@link AgentProcess}) against peers that speak
 * HTTP/2 frame by frame ({@link GrpcAttacks}): what they cost the agent is read from outside, its
 * resident memory and CPU time from {@code /proc}, and a normal client must be served while they
 * attack and after they leave.
 */
class GrpcHostileStreamsTest {

    private static final long MIB = 1024 * 1024;
    /** The agent's memory budget in these tests ({@code --max-buffered-bytes}), small so that attacks reach it fast. */
    private static final long BUDGET = 24 * MIB;
    /**
     * What the agent's resident memory may grow beyond the budget while attacked: the heap's own
     * slack (objects not yet collected, decoded copies), Netty's buffer pools, a session's queue.
     */
    private static final long MARGIN = 48 * MIB;
    /** The hello timeout in these tests ({@code --hello-timeout-ms}). */
    private static final Duration HELLO_TIMEOUT = Duration.ofSeconds(1);
    /** How long the agent has to come back to its memory after an attacker leaves. */
    private static final Duration RECOVERY = Duration.ofSeconds(30);
    /** A normal client's large reading after an attack, which needs the budget whole again. */
    private static final int LARGE_READING_BYTES = 8 * 1024 * 1024;
    private static final int WARM_UP_READINGS = 4;
    private static final long CLOCK_TICKS_PER_SECOND = 100;
    /**
     * Streams one rapid-reset connection may get written before the agent's GOAWAY reaches the
     * attacker: the agent acts on the 201st reset in a second, and what the attacker wrote meanwhile
     * (its socket's and the agent's buffers, about 35 bytes a stream) is counted too.
     */
    private static final long MOST_RESETS_ON_A_CONNECTION = 30_000;
    /**
     * The agent's CPU time while attacked by rapid reset, in percent of the attack's wall time: an
     * attacker that must reconnect every few hundred streams costs it a fraction of one core (about
     * a quarter here, the attacker sharing the machine's two cores).
     */
    private static final long MAX_CPU_SHARE_PERCENT = 60;

    private static Path tokens;

    @BeforeAll
    static void writeTokens() throws IOException {
        tokens = TckTokens.file("grpc-hostile-tokens-");
    }

    @AfterAll
    static void deleteTokens() throws IOException {
        Files.deleteIfExists(tokens);
    }

    private static AgentProcess agent(boolean withTokens) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--max-buffered-bytes", Long.toString(BUDGET),
                "--hello-timeout-ms", Long.toString(HELLO_TIMEOUT.toMillis())));
        if (withTokens) {
            args.addAll(List.of("--tokens", tokens.toString()));
        }
        return AgentProcess.start("grpc", 0, List.of(), args);
    }

    /**
     * Connects a normal client on the grpc transport, has it take a reading of {@code payloadBytes}
     * bytes (DUMMY_0's payload command) and list the sensors.
     */
    private static void serve(AgentProcess agent, int payloadBytes) throws IOException {
        try (SalClient client = SalClient.builder().transport("grpc").host("127.0.0.1").port(agent.port())
                .clientName("normal").token(TckTokens.ADMIN).connectTimeout(Duration.ofSeconds(10))
                .requestTimeout(Duration.ofSeconds(20)).connect()) {
            Reading payload = Await.result("payload", Duration.ofSeconds(20),
                    client.execute("DUMMY_0", "payload", Map.of("size", Integer.toString(payloadBytes))));
            assertEquals(payloadBytes, ((Value.Bytes) payload.value()).value().length, payload.error());
            assertFalse(Await.result("list sensors", client.listSensors()).isEmpty(), "the agent lists no sensor");
        }
    }

    private static void serve(AgentProcess agent) throws IOException {
        serve(agent, 64);
    }

    /**
     * Warms the agent up and returns its resident memory then: clients served, large readings that
     * leave enough garbage to have the JVM touch all of its young generation (-Xmx256m), so that
     * what an attack adds is what it makes the agent hold, and a full collection.
     */
    private static long baseline(AgentProcess agent) throws IOException, InterruptedException {
        for (int i = 0; i < WARM_UP_READINGS; i++) {
            serve(agent, LARGE_READING_BYTES);
        }
        serve(agent);
        fullGc(agent);
        return agent.residentBytes();
    }

    /**
     * Has the agent collect its heap (jcmd GC.run), as an idle agent would not by itself: what it
     * still holds then is what it keeps.
     */
    private static void fullGc(AgentProcess agent) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(agent.pid()), "GC.run")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!gc.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) || gc.exitValue() != 0) {
            gc.destroyForcibly();
            throw new IOException(jcmd + " " + agent.pid() + " GC.run failed");
        }
        Thread.sleep(200);
    }

    /** The agent's CPU time so far (user and system), from {@code /proc/PID/stat}. */
    private static Duration cpu(AgentProcess agent) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(agent.pid()), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: fields 14 and 15
        return Duration.ofMillis(ticks * 1000 / CLOCK_TICKS_PER_SECOND);
    }

    /** Runs {@code attack} in the background, serves a normal client once it is under way, and returns its result. */
    private static <T> T whileServing(AgentProcess agent, Duration underWay, Attack<T> attack) throws Exception {
        CompletableFuture<T> result = CompletableFuture.supplyAsync(() -> {
            try {
                return attack.run();
            } catch (Exception e) {
                throw new IllegalStateException("the attack failed: " + e, e);
            }
        });
        Thread.sleep(underWay.toMillis());
        long start = System.nanoTime();
        serve(agent);
        System.out.printf("grpc hostile streams: a normal client served in %d ms during the attack%n",
                (System.nanoTime() - start) / 1_000_000);
        return Await.result("the attack", Duration.ofSeconds(90), result);
    }

    interface Attack<T> {
        T run() throws Exception;
    }

    /** The agent's output since line {@code from}. */
    private static List<String> linesSince(AgentProcess agent, int from) throws IOException {
        List<String> lines = agent.outputLines();
        return lines.subList(Math.min(from, lines.size()), lines.size());
    }

    /** The lines not about the normal client, which is served during each attack. */
    private static List<String> attackers(List<String> lines) {
        return lines.stream().filter(l -> !l.contains("client 'normal'")).toList();
    }

    /**
     * The agent's own line for each stream of a slow client that ends ("stream N ... ended after ...
     * waits because the client was slow"): the agent's, not the transport's, at most one a second.
     */
    private static boolean streamEnd(String line) {
        return line.contains("ServedStream - stream ") && line.contains("because the client was slow");
    }

    /** Lines of stack traces: frames, causes, and an exception's own line (a class name, unstamped). */
    private static long stackFrames(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by: ")
                || l.matches("^[a-z][\\w.$]*(Exception|Error)(: .*)?$")).count();
    }

    /**
     * Waits until the agent's resident memory, after a full collection, is back within {@code bound}
     * of what it was before the attack; returns it then.
     */
    private static long recovered(AgentProcess agent, long bound, Supplier<String> what) {
        long[] rss = new long[1];
        Await.until(() -> what.get() + " (RSS now " + rss[0] / MIB + " MiB, bound " + bound / MIB + " MiB)", RECOVERY,
                () -> {
                    try {
                        fullGc(agent);
                        rss[0] = agent.residentBytes();
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                    return rss[0] <= bound;
                });
        return rss[0];
    }

    // ------------------------------------------------------------------ the tests

    @Test
    @Timeout(90)
    void unfinishedMessagesOfCallsNotAdmittedAreCutAtTheUnadmittedAllowance() throws Exception {
        try (AgentProcess agent = agent(true)) {
            long before = baseline(agent);
            // typed calls without a token, then session streams that have not said hello
            for (String path : List.of(GrpcRawConnection.ADD_SENSOR, GrpcRawConnection.SESSION)) {
                int lines = agent.outputLines().size();
                GrpcAttacks.UnfinishedMessages attack;
                long peak;
                try (PeakRss rss = new PeakRss(agent)) {
                    attack = whileServing(agent, Duration.ofSeconds(2), () -> GrpcAttacks.unfinishedMessages(
                            agent.port(), path, null, 50, 15 * (int) MIB, 15 * MIB - 1, Duration.ofSeconds(15),
                            Duration.ofSeconds(2)));
                    peak = rss.peak();
                }
                List<String> logged = attackers(linesSince(agent, lines));
                System.out.printf("grpc hostile streams: 50 unfinished 15 MiB messages on %s, not admitted: %d MiB taken"
                                + " in %d ms, ends %s, connection closed by the agent %b; agent RSS %d MiB before, %d"
                                + " MiB at the peak; %d lines logged%n", path, attack.bytesSent() / MIB,
                        attack.took().toMillis(), attack.outcomes(), attack.closedByAgent(), before / MIB, peak / MIB,
                        logged.size());
                logged.forEach(l -> System.out.println("  logged: " + l));
                // what the agent takes before it cuts a stream: the allowance, and the stream's window in flight
                long allowed = 50 * (GrpcTransportProvider.UNADMITTED_MESSAGE_BYTES + 2 * MIB);
                assertTrue(attack.bytesSent() <= allowed, "the agent took " + attack.bytesSent() / MIB
                        + " MiB of unfinished messages of calls not admitted, more than " + allowed / MIB);
                assertEquals(Map.of("RESOURCE_EXHAUSTED", 50), attack.outcomes(), "every call cut");
                assertFalse(attack.closedByAgent(), "the connection is served on; only its calls were cut");
                assertTrue(peak - before <= MARGIN, "the agent's RSS grew by " + (peak - before) / MIB + " MiB");
                assertTrue(logged.stream().anyMatch(l -> l.contains("without admitted credentials")),
                        "the cause not logged: " + logged);
                assertTrue(logged.size() <= 3, "a line for the peer, not one a stream: " + logged);
                assertEquals(0, stackFrames(logged), "stack traces logged: " + logged);
            }
            serve(agent, LARGE_READING_BYTES);
        }
    }

    @Test
    @Timeout(120)
    void unfinishedMessagesOfAnAdmittedPeerAreBoundedByTheMemoryBudget() throws Exception {
        try (AgentProcess agent = agent(false)) {
            long before = baseline(agent);
            int lines = agent.outputLines().size();
            GrpcAttacks.UnfinishedMessages attack;
            long peak;
            try (PeakRss rss = new PeakRss(agent)) {
                attack = whileServing(agent, Duration.ofSeconds(2), () -> GrpcAttacks.unfinishedMessages(agent.port(),
                        GrpcRawConnection.ADD_SENSOR, null, 50, 15 * (int) MIB, 15 * MIB - 1, Duration.ofSeconds(20),
                        Duration.ofSeconds(2)));
                peak = rss.peak();
            }
            List<String> logged = attackers(linesSince(agent, lines));
            System.out.printf("grpc hostile streams: 50 unfinished 15 MiB messages, admitted: %d MiB taken in %d ms,"
                            + " ends %s, connection closed by the agent %b; agent RSS %d MiB before, %d MiB at the"
                            + " peak (budget %d MiB); %d lines logged: %s%n", attack.bytesSent() / MIB,
                    attack.took().toMillis(), attack.outcomes(), attack.closedByAgent(), before / MIB, peak / MIB,
                    BUDGET / MIB, logged.size(), logged);
            assertTrue(attack.closedByAgent(), "the agent kept the connection holding past its budget");
            assertTrue(attack.bytesSent() <= BUDGET + 50 * 2 * MIB, "the agent took " + attack.bytesSent() / MIB
                    + " MiB of unfinished messages with a budget of " + BUDGET / MIB + " MiB");
            assertTrue(peak - before <= BUDGET + MARGIN, "the agent's RSS grew by " + (peak - before) / MIB
                    + " MiB with a budget of " + BUDGET / MIB + " MiB");
            assertTrue(logged.stream().anyMatch(l -> l.contains("memory budget")), "the cause not logged: " + logged);
            assertTrue(logged.size() <= 3, "one line for the peer: " + logged);
            assertEquals(0, stackFrames(logged), "stack traces logged: " + logged);
            recovered(agent, before + MARGIN, () -> "the agent's memory to come back after the attacker left");
            serve(agent, LARGE_READING_BYTES);
        }
    }

    @Test
    @Timeout(120)
    void aThousandUnreadStreamsOnOneConnectionAreLimitedAndBoundedByTheMemoryBudget() throws Exception {
        try (AgentProcess agent = agent(false)) {
            long before = baseline(agent);
            int lines = agent.outputLines().size();
            GrpcAttacks.UnreadStreams attack;
            long peak;
            try (PeakRss rss = new PeakRss(agent)) {
                attack = whileServing(agent, Duration.ofSeconds(3), () -> GrpcAttacks.unreadStreams(agent.port(), null,
                        1_000, 64 * 1024, Duration.ofSeconds(10)));
                peak = rss.peak();
            }
            Thread.sleep(1_000); // what closing the connection logs
            List<String> logged = attackers(linesSince(agent, lines));
            System.out.printf("grpc hostile streams: 1,000 unread StreamSensor calls: %d opened, %d refused (limit %s),"
                            + " ends %s, connection closed by the agent %b after %d ms; agent RSS %d MiB before, %d"
                            + " MiB at the peak (budget %d MiB); %d lines logged%n", attack.opened(), attack.refused(),
                    attack.maxConcurrentStreams(), attack.outcomes(), attack.closedByAgent(), attack.took().toMillis(),
                    before / MIB, peak / MIB, BUDGET / MIB, logged.size());
            logged.stream().filter(l -> !streamEnd(l)).forEach(l -> System.out.println("  logged: " + l));
            assertNotNull(attack.maxConcurrentStreams(), "the agent announced no limit of concurrent streams");
            assertEquals(100, attack.maxConcurrentStreams(), "the default limit of concurrent streams");
            assertTrue(peak - before <= BUDGET + MARGIN, "the agent's RSS grew by " + (peak - before) / MIB
                    + " MiB with a budget of " + BUDGET / MIB + " MiB");
            assertTrue(attack.closedByAgent() || attack.outcomes().getOrDefault("RESOURCE_EXHAUSTED", 0) > 0,
                    "the agent neither closed the connection nor cancelled a call: " + attack.outcomes());
            List<String> streamEnds = logged.stream().filter(GrpcHostileStreamsTest::streamEnd).toList();
            List<String> others = logged.stream().filter(l -> !streamEnd(l)).toList();
            // One line a second at most (RateLimitedLog), however many of its streams end with the connection.
            assertTrue(streamEnds.size() <= 10, streamEnds.size() + " streams' ends logged for a connection of at"
                    + " most " + attack.maxConcurrentStreams() + " streams; they are rate-limited to one a second");
            assertTrue(others.size() <= 5, "the attack and closing its connection logged " + others.size()
                    + " lines besides the streams' ends: " + others.subList(0, Math.min(10, others.size())));
            assertEquals(0, stackFrames(logged), "stack traces logged: " + logged.subList(0, Math.min(10, logged.size())));
            recovered(agent, before + MARGIN, () -> "the agent's memory to come back after the attacker left");
            serve(agent, LARGE_READING_BYTES);
        }
    }

    @Test
    @Timeout(90)
    void rapidResetGetsGoAwayAndBoundedCpuAndMemory() throws Exception {
        try (AgentProcess agent = agent(false)) {
            long before = baseline(agent);
            int lines = agent.outputLines().size();
            Duration cpuBefore = cpu(agent);
            long start = System.nanoTime();
            GrpcAttacks.RapidReset attack;
            long peak;
            try (PeakRss rss = new PeakRss(agent)) {
                attack = whileServing(agent, Duration.ofSeconds(2), () -> GrpcAttacks.rapidReset(agent.port(),
                        GrpcRawConnection.SESSION, Duration.ofSeconds(8), 20_000_000, 1_000));
                peak = rss.peak();
            }
            Duration wall = Duration.ofNanos(System.nanoTime() - start);
            Duration used = cpu(agent).minus(cpuBefore);
            List<String> logged = attackers(linesSince(agent, lines));
            System.out.printf("grpc hostile streams: rapid reset: %d streams on %d connections in %d ms, %d GOAWAY (%d"
                            + " ENHANCE_YOUR_CALM), at most %d streams on one connection; agent CPU %d ms in %d ms,"
                            + " RSS %d MiB before, %d MiB at the peak; %d lines logged%n", attack.streams(),
                    attack.connections(), attack.took().toMillis(), attack.goAways(), attack.enhanceYourCalm(),
                    attack.mostStreamsOnAConnection(), used.toMillis(), wall.toMillis(), before / MIB, peak / MIB,
                    logged.size());
            assertTrue(attack.enhanceYourCalm() > 0, "no GOAWAY (ENHANCE_YOUR_CALM) for resetting streams");
            assertTrue(attack.mostStreamsOnAConnection() <= MOST_RESETS_ON_A_CONNECTION, attack.mostStreamsOnAConnection()
                    + " streams opened and reset on one connection before the agent closed it");
            assertTrue(used.toMillis() <= wall.toMillis() * MAX_CPU_SHARE_PERCENT / 100, "the agent used " + used.toMillis()
                    + " ms of CPU in " + wall.toMillis() + " ms of rapid reset, more than " + MAX_CPU_SHARE_PERCENT
                    + " % of one core");
            assertTrue(peak - before <= MARGIN, "the agent's RSS grew by " + (peak - before) / MIB + " MiB");
            long lineBound = attack.took().toSeconds() + 5;
            assertTrue(logged.size() <= lineBound, "rapid reset logged " + logged.size() + " lines in "
                    + attack.took().toSeconds() + " s, more than a line a second: "
                    + logged.subList(0, Math.min(10, logged.size())));
            assertEquals(0, stackFrames(logged), "stack traces logged: " + logged.subList(0, Math.min(10, logged.size())));
            serve(agent);
        }
    }

    @Test
    @Timeout(60)
    void silentConnectionsAreClosed() throws Exception {
        try (AgentProcess agent = agent(false)) {
            serve(agent);
            CompletableFuture<Duration> silent = CompletableFuture.supplyAsync(() -> {
                try {
                    return GrpcAttacks.silentSocket(agent.port(), Duration.ofSeconds(30));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            Duration idle = GrpcAttacks.idleConnection(agent.port(), Duration.ofSeconds(20));
            Duration preface = Await.result("the silent socket", Duration.ofSeconds(40), silent);
            System.out.printf("grpc hostile streams: an HTTP/2 connection without calls closed after %s, a socket"
                    + " that sent nothing after %s%n", idle, preface);
            assertNotNull(idle, "an HTTP/2 connection that opened no call was not closed in 20 s");
            assertTrue(idle.compareTo(HELLO_TIMEOUT.plusSeconds(5)) <= 0, "an HTTP/2 connection without calls was"
                    + " closed after " + idle.toMillis() + " ms; the hello timeout is " + HELLO_TIMEOUT.toMillis());
            assertNotNull(preface, "a connection that never sent the HTTP/2 preface was not closed in 30 s");
            assertTrue(preface.compareTo(Duration.ofSeconds(15)) <= 0, "a connection that never sent the preface was"
                    + " closed after " + preface.toMillis() + " ms; the handshake timeout is 10 s");
            serve(agent);
        }
    }

    @Test
    @Timeout(60)
    void badPrefacesAreClosedAndLoggedWithoutStackTraces() throws Exception {
        try (AgentProcess agent = agent(false)) {
            serve(agent);
            int lines = agent.outputLines().size();
            int inputs = GrpcAttacks.badPrefaceInputs().size();
            int closed = GrpcAttacks.badPrefaces(agent.port(), Duration.ofSeconds(15));
            Thread.sleep(500);
            List<String> logged = attackers(linesSince(agent, lines));
            System.out.printf("grpc hostile streams: %d of %d bad prefaces closed; %d lines logged%n", closed, inputs,
                    logged.size());
            assertEquals(inputs, closed, "bad prefaces the agent closed");
            assertEquals(0, stackFrames(logged), "stack traces logged for bad prefaces: " + logged);
            assertTrue(logged.size() <= inputs, "more than a line per bad preface: " + logged);
            serve(agent);
        }
    }
}
