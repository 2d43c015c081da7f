package org.salgate.transport.socket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Consumer;
import javax.net.ssl.SSLSocket;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.tls.TlsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The sockets of the socket transport, with TLS when the options have it. */
final class TlsSockets {

    private static final Logger LOG = LoggerFactory.getLogger(TlsSockets.class);

    private TlsSockets() {}

    /** A listening socket on the options' host and port: TLS or plain. */
    static ServerSocket listen(ServerOptions options, int backlog) throws IOException {
        InetAddress address = InetAddress.getByName(options.host());
        if (options.tls() != null) {
            return options.tls().serverSocket(address, options.port(), backlog);
        }
        ServerSocket socket = new ServerSocket();
        try {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, options.port()), backlog);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        return socket;
    }

    /**
     * Runs an accepted TLS socket's handshake on a thread of its own, bounded by
     * {@link TlsConfig#HANDSHAKE_TIMEOUT}, so a slow or plain-text client holds up no one; then
     * hands the socket to {@code setUp}, or logs why the handshake failed and closes it.
     */
    static void handshakeThenRun(Socket accepted, Consumer<Socket> setUp) {
        Thread t = new Thread(() -> {
            SSLSocket socket = (SSLSocket) accepted;
            try {
                socket.setSoTimeout((int) TlsConfig.HANDSHAKE_TIMEOUT.toMillis());
                socket.startHandshake();
                socket.setSoTimeout(0);
            } catch (IOException e) {
                LOG.warn("TLS handshake with {} failed: {}; closed (a client without TLS, or one that does not"
                        + " trust this server's certificate)", accepted.getRemoteSocketAddress(), e.getMessage());
                closeQuietly(accepted);
                return;
            }
            setUp.accept(socket);
        }, "salgate-socket-tls-" + accepted.getPort());
        t.setDaemon(true);
        t.start();
    }

    /**
     * Connects to the options' host and port, and with TLS completes the handshake, all within the
     * connect timeout.
     *
     * @throws IOException saying why
     */
    static Socket connect(ClientOptions options) throws IOException {
        int timeout = (int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis());
        String target = options.host() + ":" + options.port();
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(options.host(), options.port()), timeout);
        } catch (IOException e) {
            s.close();
            throw new IOException("cannot connect to " + target + ": " + e.getMessage()
                    + "; check that the agent runs there with the socket transport", e);
        }
        TlsConfig tls = options.tls();
        if (tls == null) {
            return s;
        }
        try {
            SSLSocket ssl = tls.clientSocket(s, options.host(), options.port());
            ssl.setSoTimeout(timeout);
            ssl.startHandshake();
            ssl.setSoTimeout(0);
            return ssl;
        } catch (IOException e) {
            s.close();
            throw new IOException(tls.describeFailure(target, e), e);
        }
    }

    static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            LOG.debug("closing {} failed: {}", c, e.toString());
        }
    }
}
