package org.salgate.transport.rmi;

import java.util.List;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * TLS for RMI. An agent with TLS accepts TLS on its port, and its stubs carry a client socket
 * factory marked TLS. A stub's factory reaches a client JVM by deserialization, where it cannot
 * carry the client's trust settings: the client binds them to its thread around each call that
 * returns a stub ({@link #bind}), and the factories deserialized then keep them. A factory marked
 * TLS that was deserialized unbound, or bound by a client without TLS, refuses to connect rather
 * than connect in plain text.
 *
 * <p>The client's callback object is reached by the agent, so it needs a certificate too: each
 * client JVM makes a self-signed one at first use, and the callback's stub carries its SHA-256
 * fingerprint, which the agent pins. The stub travels over the client's own TLS connection to the
 * agent, so the pin is what the client sent.
 */
final class RmiTls {

    /**
     * What a client binds around the calls that return stubs: its trust settings ({@code config},
     * null for a client without TLS) and the host it dialled, which its certificate check uses and
     * which a stub whose factory names no host is reached at.
     */
    record Binding(TlsConfig config, String host) {}

    /** A binding's extent, for try-with-resources around a call that may deserialize stubs. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    private static final ThreadLocal<Binding> CURRENT = new ThreadLocal<>();
    private static TlsConfig callbackServer;
    private static String callbackPin;

    private RmiTls() {}

    /** Binds {@code binding} to this thread until the scope closes. */
    static Scope bind(Binding binding) {
        Binding previous = CURRENT.get();
        CURRENT.set(binding);
        return () -> CURRENT.set(previous);
    }

    /** What is bound to this thread, or null. */
    static Binding current() {
        return CURRENT.get();
    }

    /** The TLS server config of this JVM's callback listeners (a certificate valid for the life of any client JVM). */
    static synchronized TlsConfig callbackServer() {
        if (callbackServer == null) {
            Certificates.KeyAndChain identity = Certificates.selfSigned(List.of(), 3650);
            callbackServer = TlsConfig.server(identity);
            callbackPin = Certificates.fingerprint(identity.certificate());
        }
        return callbackServer;
    }

    /** The SHA-256 fingerprint of the callback listeners' certificate. */
    static synchronized String callbackPin() {
        callbackServer();
        return callbackPin;
    }
}
