package org.salgate.transport.rmi;

import java.util.List;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * TLS for RMI. An agent's stubs carry a client socket factory marked TLS, which cannot carry the
 * client's trust settings: the client binds them to its thread around each call that returns a
 * stub ({@link #bind}), and factories deserialized then keep them; one deserialized unbound refuses
 * to connect. A client's callback listener has a self-signed certificate per JVM, whose fingerprint
 * its stub carries (over the client's own TLS connection) for the agent to pin.
 */
final class RmiTls {

    /** What a client binds around calls returning stubs: its trust settings (null without TLS) and the host it dialled. */
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
