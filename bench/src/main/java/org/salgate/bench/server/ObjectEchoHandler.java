package org.salgate.bench.server;

import java.io.IOException;

import org.salgate.bench.codec.format.PayloadFormat;
import org.salgate.bench.codec.format.PayloadFormats;
import org.salgate.bench.codec.study.Person;
import org.salgate.bench.matrix.Envelope;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.Session;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

/**
 * The matrix's object echo, as the serialization study's server did it: an {@code Echo} of a
 * {@link Value.Bytes} {@link Envelope} is decoded into a {@link Person} with the named format and
 * encoded again into the answer. A bad envelope, an unknown format or undecodable bytes get a
 * {@link Result.Failure} and the session goes on. Everything else goes to {@code fallback}.
 */
public final class ObjectEchoHandler implements ServerHandler {

    private final ServerHandler fallback;

    /** @param fallback answers the hello and every call that is not an echo of bytes */
    public ObjectEchoHandler(ServerHandler fallback) {
        this.fallback = fallback;
    }

    @Override
    public void sessionOpened(Session session) {
        fallback.sessionOpened(session);
    }

    @Override
    public void messageReceived(Session session, Message message) {
        if (message instanceof Request r && r.call() instanceof Call.Echo e && e.payload() instanceof Value.Bytes b) {
            session.send(new Response(r.id(), echo(b.value())));
        } else {
            fallback.messageReceived(session, message);
        }
    }

    /** Decodes the person in {@code envelope} and encodes it again under the same format. */
    static Result echo(byte[] envelope) {
        Envelope in;
        PayloadFormat format;
        try {
            in = Envelope.parse(envelope);
            format = PayloadFormats.byName(in.format());
        } catch (IllegalArgumentException e) {
            return new Result.Failure(ErrorCode.INVALID_ARGUMENT, e.getMessage());
        }
        Person person;
        try {
            person = format.decode(in.body(), Person.class);
        } catch (IOException | RuntimeException e) {
            return new Result.Failure(ErrorCode.INVALID_ARGUMENT, "the payload is not a person in " + format.name()
                    + ": " + e.getMessage());
        }
        try {
            return new Result.Echoed(new Value.Bytes(Envelope.wrap(format.name(), format.encode(person))));
        } catch (IOException | RuntimeException e) {
            return new Result.Failure(ErrorCode.INTERNAL, "the person could not be encoded again in " + format.name()
                    + ": " + e.getMessage());
        }
    }

    @Override
    public void sessionClosed(Session session, Throwable cause) {
        fallback.sessionClosed(session, cause);
    }
}
