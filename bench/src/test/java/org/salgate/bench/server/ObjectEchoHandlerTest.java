package org.salgate.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.salgate.bench.codec.format.PayloadFormat;
import org.salgate.bench.codec.format.PayloadFormats;
import org.salgate.bench.codec.study.Person;
import org.salgate.bench.codec.study.StudyData;
import org.salgate.bench.matrix.Envelope;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Request;
import org.salgate.model.Result;
import org.salgate.model.Value;

class ObjectEchoHandlerTest {

    private final ExecutorService pushers = Executors.newSingleThreadExecutor();
    private final ObjectEchoHandler handler = new ObjectEchoHandler(new EchoStreamHandler("test", pushers));
    private final EchoStreamHandlerTest.FakeSession session = new EchoStreamHandlerTest.FakeSession();
    private final PayloadFormat json = PayloadFormats.byName("json");
    private final Person person = StudyData.person(7);

    @AfterEach
    void stop() {
        pushers.shutdownNow();
    }

    private void echo(long id, byte[] envelope) {
        handler.messageReceived(session, new Request(id, new Call.Echo(new Value.Bytes(envelope))));
    }

    private Person decodedAnswer(long id) throws Exception {
        Result r = session.answer(id);
        Envelope back = Envelope.parse(((Value.Bytes) assertInstanceOf(Result.Echoed.class, r).payload()).value());
        assertEquals("json", back.format());
        return json.decode(back.body(), Person.class);
    }

    @Test
    void personIsDecodedAndEncodedAgainUnderTheSameFormat() throws Exception {
        handler.sessionOpened(session);
        handler.messageReceived(session, Hello.of("protobuf", "t"));
        assertInstanceOf(HelloReply.class, session.sent.get(0));
        echo(1, Envelope.wrap("json", json.encode(person)));
        assertEquals(person, decodedAnswer(1));
    }

    @Test
    void badEnvelopeIsAnsweredWithAnErrorAndTheNextCallIsServed() throws Exception {
        handler.sessionOpened(session);
        echo(1, new byte[] {9, 'j', 's'});
        echo(2, new byte[0]);
        echo(3, Envelope.wrap("json", json.encode(person)));
        Result.Failure bad = assertInstanceOf(Result.Failure.class, session.answer(1));
        assertEquals(ErrorCode.INVALID_ARGUMENT, bad.code());
        assertTrue(bad.message().contains("9 bytes"), bad.message());
        assertInstanceOf(Result.Failure.class, session.answer(2));
        assertEquals(person, decodedAnswer(3));
    }

    @Test
    void unknownFormatIsAnsweredWithTheAvailableNamesAndTheNextCallIsServed() throws Exception {
        handler.sessionOpened(session);
        echo(1, Envelope.wrap("carrier-pigeon", new byte[] {1, 2}));
        echo(2, Envelope.wrap("json", "{not json".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        echo(3, Envelope.wrap("json", json.encode(person)));
        Result.Failure unknown = assertInstanceOf(Result.Failure.class, session.answer(1));
        assertTrue(unknown.message().contains("carrier-pigeon") && unknown.message().contains("json"),
                unknown.message());
        Result.Failure garbled = assertInstanceOf(Result.Failure.class, session.answer(2));
        assertTrue(garbled.message().contains("not a person in json"), garbled.message());
        assertEquals(person, decodedAnswer(3));
    }

    @Test
    void echoesThatAreNotBytesKeepTheirPlainBehaviour() {
        handler.sessionOpened(session);
        handler.messageReceived(session, new Request(1, new Call.Echo(new Value.Int(4))));
        assertEquals(new Result.Echoed(new Value.Int(4)), session.answer(1));
    }
}
