package org.salgate.transport.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.model.Call;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.transport.MemoryBudget;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

/**
 * Ends a byte-stream transport's sessions in every way a connection ends (the client closes, the
 * client resets it holding part of a frame, a malformed frame, the server closes gracefully or at
 * once, the client stops reading past the queue's limit, the memory budget evicts it, the server
 * stops) and checks after each that the server's {@link MemoryBudget} holds nothing and has no
 * account open: an account left open would keep its bytes from everyone else for good.
 */
public final class SessionEndings {

    /** The server's budget: room for two or three connections holding unfinished frames. */
    static final long BUDGET_BYTES = 2L * 1024 * 1024;
    /** Each session's queue limit, past which a session whose client does not read is closed. */
    static final long MAX_QUEUED_BYTES = 1536 * 1024;
    /** The answer the server floods a client with when asked for the sensors. */
    static final int FLOOD_FRAME_BYTES = 64 * 1024;
    static final int FLOOD_FRAMES = 200;
    static final int ROUNDS = 10;
    private static final long SETTLE_MILLIS = 10_000;

    private final TransportProvider provider;
    private final Function<TransportServer, MemoryBudget> budgetOf;
    private final EndingHandler handler = new EndingHandler();
    private TransportServer server;
    private MemoryBudget budget;

    private SessionEndings(TransportProvider provider, Function<TransportServer, MemoryBudget> budgetOf) {
        this.provider = provider;
        this.budgetOf = budgetOf;
    }

    /**
     * Runs every ending against a server of {@code provider}, whose budget {@code budgetOf} reads,
     * and fails naming the ending after which something was left in the budget.
     */
    public static void assertEveryEndingGivesBackTheBudget(TransportProvider provider,
            Function<TransportServer, MemoryBudget> budgetOf) throws Exception {
        SessionEndings endings = new SessionEndings(provider, budgetOf);
        endings.start();
        try {
            endings.run();
        } finally {
            endings.server.close();
        }
        endings.assertNothingHeld("the server closed with connections open");
    }

    private void start() throws IOException {
        server = provider.createServer(ServerOptions.builder().host("127.0.0.1").port(0)
                .maxQueuedBytes(MAX_QUEUED_BYTES).maxBufferedBytes(BUDGET_BYTES).build());
        server.start(handler);
        budget = budgetOf.apply(server);
        assertEquals(BUDGET_BYTES, budget.maxBytes(), "the server's budget is not the one it was given");
    }

    private void run() throws Exception {
        for (int i = 0; i < ROUNDS; i++) {
            try (Peer peer = connect()) {
                peer.hello();
                peer.request(new Call.Echo(Value.of(new byte[10_000])));
                peer.awaitAnswer();
            }
        }
        assertNothingHeld("clients closed their connections after an answer");

        for (int i = 0; i < ROUNDS; i++) {
            Peer peer = connect();
            peer.hello();
            peer.partialFrame(1024 * 1024, 300 * 1024);
            peer.reset();
        }
        assertNothingHeld("clients reset their connections holding part of a frame");

        for (int i = 0; i < ROUNDS; i++) {
            try (Peer peer = connect()) {
                peer.hello();
                peer.out.writeInt(0);
                peer.out.flush();
                peer.awaitClosedByServer("a zero-length frame");
            }
        }
        assertNothingHeld("the server closed connections for a malformed frame");

        for (Call call : List.of(EndingHandler.CLOSE, EndingHandler.CLOSE_NOW)) {
            for (int i = 0; i < ROUNDS; i++) {
                try (Peer peer = connect()) {
                    peer.hello();
                    peer.request(call);
                    peer.awaitClosedByServer(call.toString());
                }
            }
            assertNothingHeld("the server closed sessions on " + call);
        }

        for (int i = 0; i < 3; i++) {
            int overLimit = handler.closedFor("bytes are queued");
            try (Peer peer = connect()) {
                peer.hello();
                peer.request(EndingHandler.FLOOD);
                await(() -> "the session of a client that stopped reading to be closed at its queue's limit; "
                        + "closes: " + handler.causes, () -> handler.closedFor("bytes are queued") > overLimit);
            }
        }
        assertNothingHeld("the server closed sessions whose clients stopped reading");

        int forBudget = handler.closedFor("memory budget");
        List<Peer> hoarders = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Peer peer = connect();
            hoarders.add(peer);
            peer.hello();
            peer.partialFrame(1024 * 1024, 500 * 1024);
        }
        await(() -> "connections holding more than the budget to be closed for it; closes: " + handler.causes,
                () -> handler.closedFor("memory budget") > forBudget);
        closeAll(hoarders);
        assertNothingHeld("the budget closed connections and the rest closed theirs");

        List<Peer> open = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Peer holding = connect();
            open.add(holding);
            holding.hello();
            holding.partialFrame(1024 * 1024, 200 * 1024);
            Peer stalling = connect();
            open.add(stalling);
            stalling.hello();
            stalling.request(new Call.Echo(Value.of(new byte[300 * 1024])));
        }
        Peer idle = connect();
        open.add(idle);
        idle.hello();
        await(() -> "the sessions to be open before the server closes", () -> budget.connections() == open.size()
                && budget.held() > 0);
        server.close();
        closeAll(open);
    }

    private Peer connect() throws IOException {
        return new Peer(server.localAddress().getPort());
    }

    private static void closeAll(List<Peer> peers) throws IOException {
        for (Peer peer : peers) {
            peer.close();
        }
    }

    private void assertNothingHeld(String after) throws InterruptedException {
        await(() -> "the memory budget to hold nothing after " + after + ": " + budget.held() + " bytes held, "
                + budget.connections() + " accounts open", () -> budget.held() == 0 && budget.connections() == 0);
    }

    private static void await(Supplier<String> what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + SETTLE_MILLIS + " ms for " + what.get());
            }
            Thread.sleep(20);
        }
    }

    /**
     * Answers the hello and echoes; closes the session gracefully on {@link #CLOSE}, at once on
     * {@link #CLOSE_NOW}, and floods it past its queue's limit on {@link #FLOOD}.
     */
    private static final class EndingHandler implements ServerHandler {
        static final Call CLOSE = new Call.ListProtocols();
        static final Call CLOSE_NOW = new Call.GetPlatformConfig();
        static final Call FLOOD = new Call.ListSensors(false);

        final List<String> causes = new CopyOnWriteArrayList<>();

        @Override
        public void sessionOpened(Session session) {
        }

        @Override
        public void messageReceived(Session session, Message message) {
            if (message instanceof Hello) {
                session.send(HelloReply.accept("endings"));
            } else if (message instanceof Request r) {
                if (r.call() instanceof Call.Echo e) {
                    session.send(new Response(r.id(), new Result.Echoed(e.payload())));
                } else if (r.call().equals(CLOSE)) {
                    session.close();
                } else if (r.call().equals(CLOSE_NOW)) {
                    session.closeNow("closed at once by the test");
                } else if (r.call().equals(FLOOD)) {
                    Response large = new Response(r.id(), new Result.Echoed(Value.of(new byte[FLOOD_FRAME_BYTES])));
                    for (int i = 0; i < FLOOD_FRAMES && session.isOpen(); i++) {
                        session.send(large);
                    }
                }
            }
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
            causes.add(cause == null ? "none" : cause.getMessage());
        }

        int closedFor(String words) {
            return (int) causes.stream().filter(c -> c != null && c.contains(words)).count();
        }
    }

    /** A client speaking the framing by hand; it reads only when told to. */
    private static final class Peer implements AutoCloseable {
        private final Socket socket = new Socket();
        private final DataOutputStream out;
        private final DataInputStream in;
        private final ConnectionCodec codec = new ConnectionCodec(Codecs.defaultCodec());
        private long nextId = 1;

        Peer(int port) throws IOException {
            socket.setReceiveBufferSize(8 * 1024); // a client that does not read stalls the server soon
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            out = new DataOutputStream(socket.getOutputStream());
            in = new DataInputStream(socket.getInputStream());
        }

        void hello() throws IOException {
            frame(codec.encode(Hello.of(Codecs.defaultCodec().name(), "endings")));
        }

        void request(Call call) throws IOException {
            frame(codec.encode(new Request(nextId++, call)));
        }

        private void frame(byte[] body) throws IOException {
            out.writeInt(body.length);
            out.write(body);
            out.flush();
        }

        /** Announces a frame of {@code length} bytes and sends {@code sent} of them. */
        void partialFrame(int length, int sent) throws IOException {
            out.writeInt(length);
            out.write(new byte[sent]);
            out.flush();
        }

        /** Reads the hello reply and one answer. */
        void awaitAnswer() throws IOException {
            for (int i = 0; i < 2; i++) {
                in.readFully(new byte[in.readInt()]);
            }
        }

        void awaitClosedByServer(String after) throws IOException {
            byte[] buffer = new byte[8192];
            try {
                while (in.read(buffer) >= 0) {
                    // what the server sent before closing
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the server did not close the connection after " + after);
            } catch (IOException e) {
                // reset by the server: closed too
            }
        }

        /** Closes with a reset rather than a graceful end. */
        void reset() throws IOException {
            socket.setSoLinger(true, 0);
            socket.close();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
