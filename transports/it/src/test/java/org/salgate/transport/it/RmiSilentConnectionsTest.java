package org.salgate.transport.it;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.client.SalClient;
import org.salgate.transport.Transports;
import org.salgate.transport.rmi.RmiTransportProvider;

/**
 * Issue 47, finding 6: connections to the agent program's RMI port that connect and say nothing
 * are closed by the agent about the hello timeout after they connected (RMI alone keeps them two
 * hours), and the agent's threads, counted from outside its process, fall back near where they
 * were; a normal client is served during and after.
 */
@Timeout(120)
class RmiSilentConnectionsTest {

    private static final int SILENT = 200;
    private static final Duration HELLO_TIMEOUT = Duration.ofSeconds(2);
    /** How much after the hello timeout the last one may be closed: 200 closes on 2 shared cores. */
    private static final Duration CLOSE_MARGIN = Duration.ofSeconds(4);
    /**
     * How long the agent's threads may take to fall back once the connections are closed: RMI
     * keeps an idle connection thread for the keep-alive the agent sets (5 s), plus a margin.
     */
    private static final Duration THREADS_END = Duration.ofSeconds(20);
    /** Threads the agent may have beyond its baseline afterwards (RMI's pools, a client's session). */
    private static final int THREAD_SLACK = 20;

    private static void serve(int port) throws IOException {
        try (SalClient client = SalClient.builder().transport(Transports.byName(RmiTransportProvider.NAME))
                .host("127.0.0.1").port(port).clientName("normal").connectTimeout(Duration.ofSeconds(5))
                .requestTimeout(Duration.ofSeconds(10)).connect()) {
            assertFalse(Await.result("list sensors", client.listSensors()).isEmpty(), "the agent lists no sensor");
        }
    }

    private static long threads(AgentProcess agent) {
        try {
            return agent.threads();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the threads of " + agent, e);
        }
    }

    @Test
    void silentConnectionsAreClosedAtTheHelloTimeoutAndTheirThreadsEnd() throws Exception {
        try (AgentProcess agent = AgentProcess.start(RmiTransportProvider.NAME, 0, List.of(),
                List.of("--hello-timeout-ms", Long.toString(HELLO_TIMEOUT.toMillis())))) {
            serve(agent.port()); // loads what serving needs before the baseline
            Thread.sleep(HELLO_TIMEOUT.toMillis() + 6_000); // the client's connections and their threads end
            long threadsBefore = agent.threads();

            List<Socket> silent = new ArrayList<>();
            try {
                long opened = System.nanoTime();
                for (int i = 0; i < SILENT; i++) {
                    Socket socket = new Socket();
                    socket.connect(new InetSocketAddress("127.0.0.1", agent.port()), 5_000);
                    silent.add(socket);
                }
                Await.until(() -> "the agent to start a thread per silent connection (" + threads(agent) + " now, "
                        + threadsBefore + " before)", Duration.ofSeconds(20),
                        () -> threads(agent) >= threadsBefore + SILENT / 2);
                long threadsDuring = agent.threads();
                serve(agent.port());

                long deadline = opened + HELLO_TIMEOUT.plus(CLOSE_MARGIN).toNanos();
                int closed = 0;
                for (Socket socket : silent) {
                    if (closedByTheAgent(socket, deadline)) {
                        closed++;
                    }
                }
                long lastClosedMillis = (System.nanoTime() - opened) / 1_000_000;
                assertEquals(SILENT, closed, "silent connections the agent closed within "
                        + HELLO_TIMEOUT.plus(CLOSE_MARGIN).toMillis() + " ms of connecting");

                long threadBound = threadsBefore + THREAD_SLACK;
                Await.until(() -> "the agent's threads to end with the connections (" + threads(agent) + " now, "
                        + threadsBefore + " before)", THREADS_END, () -> threads(agent) <= threadBound);
                System.out.printf("silent connections [rmi]: %d closed by the agent by %d ms after connecting"
                                + " (hello timeout %d ms); agent threads %d / %d / %d before / during / after%n",
                        SILENT, lastClosedMillis, HELLO_TIMEOUT.toMillis(), threadsBefore, threadsDuring,
                        agent.threads());
            } finally {
                for (Socket socket : silent) {
                    socket.close();
                }
            }
            serve(agent.port());
            assertTrue(agent.isAlive(), "the agent died");
        }
    }

    /** Whether the agent closed {@code socket} (it reads end of stream, or a reset) before {@code deadline}. */
    private static boolean closedByTheAgent(Socket socket, long deadlineNanos) throws IOException {
        long left = (deadlineNanos - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
            left = 1;
        }
        socket.setSoTimeout((int) left);
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }
}
