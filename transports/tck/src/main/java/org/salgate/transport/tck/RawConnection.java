package org.salgate.transport.tck;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.Hello;

/**
 * A socket that speaks the framing by hand, to send what a well-behaved client never would; over
 * TLS when given a client config.
 */
public final class RawConnection implements AutoCloseable {

    private final Socket socket;
    private final DataOutputStream out;

    public RawConnection(InetSocketAddress address) throws IOException {
        this(address, null);
    }

    public RawConnection(InetSocketAddress address, TlsConfig tls) throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress("127.0.0.1", address.getPort()), 5_000);
        if (tls != null) {
            javax.net.ssl.SSLSocket secure = tls.clientSocket(plain, "127.0.0.1", address.getPort());
            secure.setSoTimeout(5_000);
            secure.startHandshake();
            socket = secure;
        } else {
            socket = plain;
        }
        socket.setSoTimeout((int) Await.DEFAULT.toMillis());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** Sends a frame: its length, then its bytes. */
    public RawConnection frame(byte[] body) throws IOException {
        out.writeInt(body.length);
        out.write(body);
        out.flush();
        return this;
    }

    /** Sends a length prefix only. */
    public RawConnection length(int length) throws IOException {
        out.writeInt(length);
        out.flush();
        return this;
    }

    /** Sends raw bytes. */
    public RawConnection bytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Sends a valid hello frame. */
    public RawConnection hello() throws IOException {
        return frame(new ConnectionCodec(Codecs.defaultCodec()).encode(Hello.of("protobuf", "raw")));
    }

    /** Reads and drops whatever the server sends until it closes; false if it stayed open. */
    public boolean closedByPeer() throws IOException {
        return closedByPeer(socket);
    }

    /**
     * Reads and drops what the peer sends on {@code socket} until it closes (or resets) it, within
     * the socket's read timeout; false if it stayed open.
     */
    static boolean closedByPeer(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        try {
            while (true) {
                if (in.read(buffer) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset by the server also counts as closed
        }
    }

    /**
     * Whether the server has closed the connection, reading what it sent for at most {@code wait};
     * false if it is still open by then.
     */
    public boolean closedWithin(Duration wait) throws IOException {
        int before = socket.getSoTimeout();
        socket.setSoTimeout((int) Math.max(1, wait.toMillis()));
        try {
            return closedByPeer();
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(before);
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
