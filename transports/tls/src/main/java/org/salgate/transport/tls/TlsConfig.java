package org.salgate.transport.tls;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The TLS settings of one side of a connection, carried by
 * {@link org.salgate.transport.ServerOptions#tls()} and {@link org.salgate.transport.ClientOptions#tls()}
 * (null there means plain TCP). A server config holds its key and certificate chain; a client
 * config holds how it trusts the server: a CA file, the system's trust store, or one pinned
 * certificate. There is no way to trust every certificate.
 *
 * <p>Transports take what their library needs: {@link #serverEngine()} / {@link #clientEngine}
 * for engine-based ones (Netty, MINA), {@link #serverSocket} / {@link #clientSocket} for socket
 * ones, {@link #engineContext} for a library that makes its own engines from an
 * {@link SSLContext}, and {@link #keyManagerFactory()} / {@link #trustManager()} for builders that
 * take those (gRPC's, Netty's {@code SslContextBuilder}). Every way enables {@link #PROTOCOLS}
 * only and, on a client that trusts CAs, checks that the certificate names the host dialled.
 */
public final class TlsConfig {

    /** The protocols enabled, newest first: TLS 1.3, and 1.2 for older peers. */
    public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /** How long a server waits for a client's handshake before closing the connection. */
    public static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    private final SSLContext context;
    private final KeyManagerFactory keyManagers;
    private final X509TrustManager trustManager;
    private final boolean verifyHostname;
    private final String description;

    private TlsConfig(SSLContext context, KeyManagerFactory keyManagers, X509TrustManager trustManager,
                      boolean verifyHostname, String description) {
        this.context = context;
        this.keyManagers = keyManagers;
        this.trustManager = trustManager;
        this.verifyHostname = verifyHostname;
        this.description = description;
    }

    // ------------------------------------------------------------------ servers

    /** A server that presents {@code identity}'s certificate chain. */
    public static TlsConfig server(Certificates.KeyAndChain identity) {
        Objects.requireNonNull(identity, "identity");
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = new char[0];
            store.setKeyEntry("salgate", identity.key(), password, identity.chain().toArray(X509Certificate[]::new));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, password);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            X509Certificate certificate = identity.certificate();
            return new TlsConfig(ctx, kmf, null, false, "TLS with certificate "
                    + certificate.getSubjectX500Principal().getName() + " (SHA-256 "
                    + Certificates.fingerprint(certificate) + ")");
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use this key and certificate for TLS: " + e.getMessage(), e);
        }
    }

    /**
     * A server with the certificate chain and private key of two PEM files (the key unencrypted).
     *
     * @throws IOException naming the file that is missing, unreadable or holds no such item
     * @throws IllegalArgumentException when the key does not suit the certificate
     */
    public static TlsConfig serverFromPem(Path certificateChain, Path privateKey) throws IOException {
        List<X509Certificate> chain = Certificates.readCertificates(certificateChain);
        return server(new Certificates.KeyAndChain(Certificates.readPrivateKey(privateKey), chain));
    }

    // ------------------------------------------------------------------ clients

    /** A client that trusts the CAs of the JVM's trust store and checks the host name. */
    public static TlsConfig clientTrustingSystem() {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init((KeyStore) null);
            return client(x509(tmf.getTrustManagers()), true, "TLS trusting the system's CAs");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the system's trust store: " + e.getMessage(), e);
        }
    }

    /** A client that trusts the CA certificates of a PEM file, and no other, and checks the host name. */
    public static TlsConfig clientTrustingCa(Path caFile) throws IOException {
        return clientTrusting(Certificates.readCertificates(caFile), "TLS trusting the CA in " + caFile);
    }

    /** A client that trusts these CA certificates, and no other, and checks the host name. */
    public static TlsConfig clientTrusting(List<X509Certificate> cas, String description) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (X509Certificate ca : cas) {
                store.setCertificateEntry("ca-" + i++, ca);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            return client(x509(tmf.getTrustManagers()), true, description);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot trust these certificates: " + e.getMessage(), e);
        }
    }

    /**
     * A client that accepts exactly the server certificate with this SHA-256 fingerprint (see
     * {@link Certificates#parseFingerprint} for the forms accepted). The pin names the certificate,
     * so the host name is not checked.
     */
    public static TlsConfig clientPinned(String sha256) {
        PinnedTrustManager pinned = new PinnedTrustManager(Certificates.parseFingerprint(sha256));
        return client(pinned, false, "TLS pinned to SHA-256 " + pinned.fingerprint());
    }

    private static TlsConfig client(X509TrustManager trust, boolean verifyHostname, String description) {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {trust}, null);
            return new TlsConfig(ctx, null, trust, verifyHostname, description);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** The factory's PKIX trust manager, refusing also a trusted server certificate that is out of date. */
    private static X509TrustManager x509(TrustManager[] managers) {
        for (TrustManager m : managers) {
            if (m instanceof X509ExtendedTrustManager x) {
                return new CurrentServerTrustManager(x);
            }
        }
        throw new IllegalStateException("the JVM's trust manager factory made no X.509 trust manager");
    }

    // ------------------------------------------------------------------ what transports use

    /** Whether this is a server's config (it has a key); false for a client's. */
    public boolean isServer() {
        return keyManagers != null;
    }

    /** Whether a client checks that the server's certificate names the host it dialled. */
    public boolean verifiesHostname() {
        return verifyHostname;
    }

    /**
     * The underlying context, for builders that take one. Engines and sockets made straight from
     * it lack this config's protocol and host-name settings: prefer the methods below.
     */
    public SSLContext sslContext() {
        return context;
    }

    /** A server's key managers, for builders that take them (gRPC's, Netty's SslContextBuilder). */
    public KeyManagerFactory keyManagerFactory() {
        if (keyManagers == null) {
            throw new IllegalStateException("a client's TLS config has no key; it trusts: " + description);
        }
        return keyManagers;
    }

    /** A client's trust manager, for builders that take one. */
    public X509TrustManager trustManager() {
        if (trustManager == null) {
            throw new IllegalStateException("a server's TLS config has no trust manager: " + description);
        }
        return trustManager;
    }

    /** The protocols to enable, as an array. */
    public String[] protocols() {
        return PROTOCOLS.toArray(String[]::new);
    }

    /** A server-mode engine. */
    public SSLEngine serverEngine() {
        requireServer();
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        engine.setSSLParameters(parameters(engine.getSSLParameters()));
        return engine;
    }

    /** A client-mode engine for a connection to {@code host:port} (the name checked in the certificate). */
    public SSLEngine clientEngine(String host, int port) {
        requireClient();
        SSLEngine engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        engine.setSSLParameters(parameters(engine.getSSLParameters()));
        return engine;
    }

    /** A listening TLS socket bound to {@code address:port}. */
    public SSLServerSocket serverSocket(InetAddress address, int port, int backlog) throws IOException {
        requireServer();
        SSLServerSocket socket = (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
        socket.setSSLParameters(parameters(socket.getSSLParameters()));
        socket.setReuseAddress(true);
        try {
            socket.bind(new java.net.InetSocketAddress(address, port), backlog);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        return socket;
    }

    /** A listening TLS socket bound to {@code address:port}, as a plain {@link ServerSocket}. */
    public ServerSocket serverSocket(InetAddress address, int port) throws IOException {
        return serverSocket(address, port, 0);
    }

    /**
     * A client TLS socket over a socket already connected to {@code host:port}; closing it closes
     * {@code connected}. The handshake runs on first use, or at once with {@link SSLSocket#startHandshake()}.
     */
    public SSLSocket clientSocket(Socket connected, String host, int port) throws IOException {
        requireClient();
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(connected, host, port, true);
        socket.setUseClientMode(true);
        socket.setSSLParameters(parameters(socket.getSSLParameters()));
        return socket;
    }

    /**
     * The server side of TLS over a socket a plain listening socket accepted; closing it closes
     * {@code accepted}. The handshake runs on first use, on the thread that reads.
     */
    public SSLSocket acceptedSocket(Socket accepted) throws IOException {
        requireServer();
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(accepted, null, true);
        socket.setUseClientMode(false);
        socket.setSSLParameters(parameters(socket.getSSLParameters()));
        return socket;
    }

    /**
     * An SSLContext whose engines are this config's: for a library that calls
     * {@link SSLContext#createSSLEngine()} itself. On a client, {@code host:port} is the server
     * dialled (ignored on a server). Its socket factories are not for use.
     */
    public SSLContext engineContext(String host, int port) {
        return new EngineContext(this, host, port, PROTOCOLS, null);
    }

    /**
     * As {@link #engineContext(String, int)}, enabling only {@code protocols}, a subset of
     * {@link #PROTOCOLS}: for a library whose handshake loop predates one of them.
     */
    public SSLContext engineContext(String host, int port, List<String> protocols) {
        return engineContext(host, port, protocols, null);
    }

    /**
     * As {@link #engineContext(String, int, List)}, for a client whose library does not say when the
     * handshake is done: the context's engine completes {@code handshake} when its handshake
     * finishes, or fails it with the TLS error (or the close) that ends it.
     */
    public SSLContext engineContext(String host, int port, List<String> protocols,
                                    java.util.concurrent.CompletableFuture<Void> handshake) {
        if (protocols.isEmpty() || !PROTOCOLS.containsAll(protocols)) {
            throw new IllegalArgumentException("protocols must be some of " + PROTOCOLS + ", got " + protocols);
        }
        return new EngineContext(this, host, port, protocols, handshake);
    }

    private SSLParameters parameters(SSLParameters base) {
        base.setProtocols(protocols());
        if (!isServer() && verifyHostname) {
            base.setEndpointIdentificationAlgorithm("HTTPS");
        }
        return base;
    }

    private void requireServer() {
        if (!isServer()) {
            throw new IllegalStateException("a client's TLS config cannot serve: " + description);
        }
    }

    private void requireClient() {
        if (isServer()) {
            throw new IllegalStateException("a server's TLS config cannot dial: " + description);
        }
    }

    /**
     * One sentence on why a client's TLS handshake with {@code target} failed, for the exception a
     * transport throws from connect: the pin, an expired certificate, a certificate for another
     * host, an unknown CA, or a server that does not speak TLS.
     */
    public String describeFailure(String target, Throwable failure) {
        String base = "TLS handshake with " + target + " failed: ";
        List<Throwable> chain = new java.util.ArrayList<>();
        for (Throwable t = failure; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        for (Throwable t : chain) {
            if (t instanceof CertificateExpiredException || t instanceof CertPathValidatorException v
                    && v.getReason() == CertPathValidatorException.BasicReason.EXPIRED) {
                return base + "the agent's certificate has expired (" + t.getMessage()
                        + "); the agent needs a new certificate";
            }
        }
        for (Throwable t : chain) {
            String m = String.valueOf(t.getMessage());
            if (m.contains("not the pinned")) {
                return base + m + "; check the pin against the fingerprint the agent printed";
            }
            if (m.contains("No subject alternative") || m.contains("No name matching")) {
                return base + "the agent's certificate is not for " + target + " (" + m
                        + "); connect with a host name the certificate names";
            }
        }
        for (Throwable t : chain) {
            String m = String.valueOf(t.getMessage());
            if (t instanceof CertPathValidatorException || m.contains("PKIX path")) {
                return base + "the agent's certificate is not signed by a trusted CA (" + m + "); this client uses "
                        + description;
            }
            if (m.contains("Unsupported or unrecognized SSL message") || m.contains("not an SSL/TLS record")
                    || m.contains("plaintext")) {
                return base + "the agent answered without TLS; connect without TLS, or start the agent with TLS";
            }
            if (t instanceof EOFException || t instanceof java.nio.channels.ClosedChannelException
                    || m.contains("Remote host terminated") || m.contains("closed")
                    || m.contains("Connection reset")) {
                return base + "the agent closed the connection during the handshake; check that it runs with"
                        + " TLS (agent flags --tls-cert/--tls-key or --tls-self-signed)";
            }
        }
        return base + failure.getMessage();
    }

    @Override
    public String toString() {
        return description;
    }
}
