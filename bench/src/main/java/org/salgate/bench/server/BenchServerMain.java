package org.salgate.bench.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.salgate.bench.limits.RawSocketServer;
import org.salgate.program.ProgramDefaults;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.transport.Transports;
import org.salgate.transport.tls.TlsConfig;

/**
 * The server under test, in its own JVM: {@code transport <name> [--object-echo]} (the echo/stream
 * service on a transport; with {@code --object-echo}, echoes of bytes are decoded and encoded again
 * by {@link ObjectEchoHandler}), {@code agent <name> [dummySensors] [--max-sessions N] [--idle-timeout-ms MS]}
 * (the real agent, its session limits set where given) or {@code raw} (the framework-free
 * socket ceiling). Binds 127.0.0.1 on a free port, prints {@code LISTENING <port>} on stdout, and
 * runs until its stdin closes or reads {@code stop}, so that it never outlives the bench. An agent
 * server answers {@value BenchProtocol#STREAM_COUNTS_ORDER} on stdin with its stream counters
 * (see {@link BenchProtocol#STREAM_COUNTS}).
 */
public final class BenchServerMain {

    /** The transport server's flag for the matrix's object echo. */
    public static final String OBJECT_ECHO = "--object-echo";
    /** The agent server's option for its most sessions at once, as the agent's own {@code --max-sessions}. */
    public static final String MAX_SESSIONS = "--max-sessions";
    /** The agent server's option for its idle timeout, as the agent's own {@code --idle-timeout-ms}. */
    public static final String IDLE_TIMEOUT_MS = "--idle-timeout-ms";

    private BenchServerMain() {}

    public static void main(String[] args) {
        ProgramDefaults.apply();
        try {
            AutoCloseable server = start(args);
            waitForStop(server);
            server.close();
            System.exit(0);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            System.err.println("bench server failed: " + e);
            System.exit(1);
        }
    }

    private static AutoCloseable start(String[] allArgs) throws Exception {
        BenchTls.ServerArgs parsed = BenchTls.ServerArgs.parse(allArgs);
        String[] args = parsed.rest();
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: BenchServerMain transport <name> [--object-echo] | agent <name> [dummySensors] | raw;"
                    + " transport and agent take --tls-cert FILE --tls-key FILE");
        }
        switch (args[0]) {
            case "transport" -> {
                EchoService service = startEchoService(Transports.byName(arg(args, 1, "a transport name")),
                        parsed.tls(), objectEcho(args));
                listening(service.port());
                return service;
            }
            case "agent" -> {
                List<String> rest = new ArrayList<>(Arrays.asList(args));
                String maxSessions = BenchTls.ServerArgs.takeValue(rest, MAX_SESSIONS, "a number");
                String idleMs = BenchTls.ServerArgs.takeValue(rest, IDLE_TIMEOUT_MS, "milliseconds");
                args = rest.toArray(String[]::new);
                int dummies = args.length > 2 ? Integer.parseInt(args[2]) : 20;
                org.salgate.agent.Agent agent = AgentServer.start(arg(args, 1, "a transport name"), dummies,
                        parsed.tls(), maxSessions == null ? null : Integer.valueOf(maxSessions),
                        idleMs == null ? null : Duration.ofMillis(Long.parseLong(idleMs)));
                listening(agent.port());
                return agent;
            }
            case "raw" -> {
                RawSocketServer raw = new RawSocketServer();
                listening(raw.port());
                return raw;
            }
            default -> throw new IllegalArgumentException("unknown server kind '" + args[0]
                    + "'; use transport, agent or raw");
        }
    }

    /**
     * The transport bench's echo and stream service on 127.0.0.1, at a free port, in this JVM:
     * {@link EchoStreamHandler} (behind {@link ObjectEchoHandler} if {@code objectEcho}), over TLS
     * if {@code tls} is set, with the bench's outbound water marks.
     *
     * @throws IOException if the server cannot start
     */
    public static EchoService startEchoService(TransportProvider provider, TlsConfig tls, boolean objectEcho)
            throws IOException {
        ExecutorService pushers = Executors.newFixedThreadPool(
                Math.max(2, Runtime.getRuntime().availableProcessors()), r -> {
                    Thread t = new Thread(r, "bench-push");
                    t.setDaemon(true);
                    return t;
                });
        TransportServer server = provider.createServer(ServerOptions.builder().host("127.0.0.1").port(0)
                .writeWaterMarks(BenchProtocol.WRITE_LOW_WATER_BYTES, BenchProtocol.WRITE_HIGH_WATER_BYTES)
                .tls(tls).build());
        EchoService service = new EchoService(server, pushers);
        EchoStreamHandler echo = new EchoStreamHandler("bench-" + provider.name(), pushers);
        try {
            server.start(objectEcho ? new ObjectEchoHandler(echo) : echo);
        } catch (IOException | RuntimeException e) {
            service.close();
            throw e;
        }
        return service;
    }

    /** A running echo and stream service; closing it stops the server and its push threads. */
    public record EchoService(TransportServer server, ExecutorService pushers) implements AutoCloseable {

        /** The port it listens on. */
        public int port() {
            return server.localAddress().getPort();
        }

        @Override
        public void close() {
            server.close();
            pushers.shutdownNow();
        }
    }

    private static boolean objectEcho(String[] args) {
        for (int i = 2; i < args.length; i++) {
            if (!args[i].equals(OBJECT_ECHO)) {
                throw new IllegalArgumentException("unknown transport server option '" + args[i] + "'; the only one is "
                        + OBJECT_ECHO);
            }
        }
        return args.length > 2;
    }

    private static String arg(String[] args, int i, String what) {
        if (args.length <= i) {
            throw new IllegalArgumentException(args[0] + " needs " + what);
        }
        return args[i];
    }

    private static void listening(int port) {
        System.out.println(BenchProtocol.LISTENING + " " + port);
        System.out.flush();
    }

    private static void waitForStop(AutoCloseable server) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String order = line.trim();
            if (order.equals("stop")) {
                return;
            }
            if (order.equals(BenchProtocol.STREAM_COUNTS_ORDER)) {
                System.out.println(server instanceof org.salgate.agent.Agent agent
                        ? BenchProtocol.STREAM_COUNTS + " " + agent.streamFramesEncoded() + " "
                                + agent.streamTotals().delivered()
                        : BenchProtocol.STREAM_COUNTS + " none");
                System.out.flush();
            }
        }
    }
}
