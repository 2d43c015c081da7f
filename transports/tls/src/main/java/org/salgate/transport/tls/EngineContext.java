package org.salgate.transport.tls;

import java.security.KeyManagementException;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * An SSLContext that makes {@link TlsConfig}'s engines, for libraries that take an SSLContext and
 * call {@link SSLContext#createSSLEngine()} themselves (xSocket).
 */
final class EngineContext extends SSLContext {

    EngineContext(TlsConfig config, String host, int port, List<String> protocols,
                  CompletableFuture<Void> handshake) {
        super(new Spi(config, host, port, protocols.toArray(String[]::new), handshake),
                config.sslContext().getProvider(), config.sslContext().getProtocol());
    }

    private static final class Spi extends SSLContextSpi {
        private final TlsConfig config;
        private final String host;
        private final int port;
        private final String[] protocols;
        private final CompletableFuture<Void> handshake;

        Spi(TlsConfig config, String host, int port, String[] protocols, CompletableFuture<Void> handshake) {
            this.config = config;
            this.host = host;
            this.port = port;
            this.protocols = protocols;
            this.handshake = handshake;
        }

        private SSLEngine engine() {
            SSLEngine engine = config.isServer() ? config.serverEngine() : config.clientEngine(host, port);
            engine.setEnabledProtocols(protocols);
            return handshake == null ? engine : new WatchedEngine(engine, handshake);
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) throws KeyManagementException {
            throw new KeyManagementException("this context is set up by its TlsConfig");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            throw new UnsupportedOperationException("use TlsConfig.clientSocket for sockets");
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            throw new UnsupportedOperationException("use TlsConfig.serverSocket for sockets");
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return engine();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String ignoredHost, int ignoredPort) {
            return engine();
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return config.sslContext().getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return config.sslContext().getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return config.sslContext().getDefaultSSLParameters();
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return config.sslContext().getSupportedSSLParameters();
        }
    }
}
