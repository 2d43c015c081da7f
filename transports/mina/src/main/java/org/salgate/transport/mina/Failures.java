package org.salgate.transport.mina;

import java.io.IOException;
import org.apache.mina.filter.codec.ProtocolCodecException;
import org.salgate.wire.CodecException;

/** Turns what MINA reports into the cause handed to the handlers. */
final class Failures {

    private Failures() {}

    /** The codec's own exception rather than MINA's wrapper around it, so the cause says what was wrong. */
    static Throwable unwrap(Throwable cause) {
        Throwable t = cause;
        while (t instanceof ProtocolCodecException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** Whether the failure is the peer's doing (bad bytes, broken connection) rather than a bug here. */
    static boolean isExpected(Throwable cause) {
        return cause instanceof CodecException || cause instanceof IOException;
    }
}
