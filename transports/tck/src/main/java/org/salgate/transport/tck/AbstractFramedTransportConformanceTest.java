package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.model.Call;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Request;
import org.salgate.model.Result;
import org.salgate.model.Value;

/**
 * The conformance suite of the transports that carry this project's framing (a 4-byte length,
 * then the frame) on a socket: Netty, MINA, xSocket and the socket transport. On top of the
 * transport-level suite, a {@link RawConnection} sends them bytes no client of theirs would:
 * frames over the limit, lengths of zero, below zero or of 2 GiB, garbage, a request before the
 * hello; each must close that session alone, with a cause, and go on serving everyone else, and
 * a client must refuse a frame over its own limit. RMI, HTTP and gRPC speak their own protocols on
 * the socket, where these bytes cannot reach a session; their modules, and their
 * {@code *HostilePeerConformanceTest}, test the same on their own wire.
 */
public abstract class AbstractFramedTransportConformanceTest extends AbstractTransportConformanceTest {

    @ParameterizedTest(name = "after hello: {0}")
    @ValueSource(booleans = {false, true})
    @Timeout(30)
    void oversizeFrameClosesOnlyThatSession(boolean afterHello) throws Exception {
        int max = 1024 * 1024;
        startServer(o -> o.maxFrameBytes(max));
        TckClient good = client("good");
        int before = handler().sessions().size();
        RawConnection raw = raw();
        if (afterHello) {
            raw.hello();
        }
        raw.length(max + 1).bytes(new byte[1024]);
        RecordedSession rawSession = handler().sessionAt(before);
        Optional<Throwable> cause = Await.result("the oversize session to close", rawSession.closed());
        assertTrue(cause.isPresent(), "an oversize frame must close the session with a cause");
        assertTrue(raw.closedByPeer(), "the server kept the connection open after an oversize frame");
        assertEchoes(good);
        assertEchoes(client("after"));
    }

    /** Bad inputs: a description, and whether to send a valid hello first, and the bytes. */
    static Stream<Arguments> malformedInputs() {
        byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3};
        byte[] requestFirst = new ConnectionCodec(Codecs.defaultCodec()).encode(
                new Request(1, new Call.ListProtocols()));
        return Stream.of(
                Arguments.of("garbage instead of a hello", false, framed(garbage)),
                Arguments.of("garbage after the hello", true, framed(garbage)),
                Arguments.of("a request before the hello", false, framed(requestFirst)),
                Arguments.of("a zero length", true, new byte[] {0, 0, 0, 0}),
                Arguments.of("a negative length", true, new byte[] {(byte) 0x80, 0, 0, 1, 5, 5}));
    }

    private static byte[] framed(byte[] body) {
        byte[] frame = new byte[4 + body.length];
        java.nio.ByteBuffer.wrap(frame).putInt(body.length).put(body);
        return frame;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedInputs")
    @Timeout(30)
    void malformedBytesCloseOnlyThatSession(String what, boolean helloFirst, byte[] bytes) throws Exception {
        startServer();
        TckClient good = client("good");
        int before = handler().sessions().size();
        RawConnection raw = raw();
        if (helloFirst) {
            raw.hello();
        }
        raw.bytes(bytes);
        RecordedSession rawSession = handler().sessionAt(before);
        Optional<Throwable> cause = Await.result("the session that got " + what + " to close", rawSession.closed());
        assertTrue(cause.isPresent(), what + " must close the session with a cause");
        assertTrue(raw.closedByPeer(), "the server kept the connection open after " + what);
        assertEchoes(good);
        assertEchoes(client("after"));
    }

    @Test
    @Timeout(30)
    void clientRefusesOversizeFrameFromTheServer() throws Exception {
        startServer();
        TckClient small = client("small", o -> o.maxFrameBytes(64 * 1024), false);
        CompletableFuture<Result> answer = small.request(new Call.Echo(Value.of(new byte[128 * 1024])));
        Throwable cause = Await.result("the client to close on an oversize frame", small.closed());
        assertTrue(cause != null, "an oversize frame must close the client with a cause");
        assertTrue(answer.isCompletedExceptionally() || !answer.isDone(), "the oversize answer was delivered");
        assertEchoes(client("normal"));
    }

    @Test
    @Timeout(30)
    void oversizeFrameDetectedBeforeItsBodyArrives() throws Exception {
        startServer(o -> o.maxFrameBytes(1024 * 1024));
        int before = handler().sessions().size();
        RawConnection raw = raw();
        raw.hello().length(Integer.MAX_VALUE);
        RecordedSession rawSession = handler().sessionAt(before);
        assertTrue(Await.result("the session announcing 2 GiB to close", rawSession.closed()).isPresent(),
                "announcing a 2 GiB frame must close the session with a cause, without waiting for the body");
    }
}
