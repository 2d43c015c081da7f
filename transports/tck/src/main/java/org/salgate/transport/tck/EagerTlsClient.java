package org.salgate.transport.tck;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import org.salgate.transport.tls.TlsConfig;

/**
 * A TLS client that sends its first frame in the same TCP write as its last handshake record,
 * as a client whose handshake ends on its own message may (TLS 1.3, and a resumed TLS 1.2
 * session): the server must read the frame that arrived with the handshake's end, without waiting
 * for more bytes. Blocking I/O on an {@link SSLEngine}; for tests only.
 */
public final class EagerTlsClient implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final SSLEngine engine;
    private final ByteBuffer netIn;
    private final ByteBuffer appIn;
    private boolean endedOnOwnRecord;

    private EagerTlsClient(Socket socket, SSLEngine engine) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.engine = engine;
        SSLSession session = engine.getSession();
        this.netIn = ByteBuffer.allocate(session.getPacketBufferSize());
        this.appIn = ByteBuffer.allocate(session.getApplicationBufferSize() + (1 << 16));
    }

    /** Connects to {@code server}, handshakes and sends {@code firstFrame} with the last handshake record if it can. */
    public static EagerTlsClient connect(InetSocketAddress server, TlsConfig tls, byte[] firstFrame, Duration timeout)
            throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(server, (int) timeout.toMillis());
        socket.setSoTimeout((int) timeout.toMillis());
        EagerTlsClient client = new EagerTlsClient(socket, tls.clientEngine("127.0.0.1", server.getPort()));
        try {
            client.handshakeAndSend(firstFrame);
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
        return client;
    }

    /** Whether the handshake ended on this client's record, so the frame left in the same write. */
    public boolean sentFrameWithHandshakeEnd() {
        return endedOnOwnRecord;
    }

    /** The negotiated protocol, for messages. */
    public String protocol() {
        return engine.getSession().getProtocol();
    }

    private void handshakeAndSend(byte[] frame) throws IOException {
        engine.beginHandshake();
        ByteBuffer netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize() * 4);
        HandshakeStatus status = engine.getHandshakeStatus();
        while (true) {
            switch (status) {
                case NEED_WRAP -> {
                    SSLEngineResult result = wrap(ByteBuffer.allocate(0), netOut);
                    status = result.getHandshakeStatus();
                    if (status == HandshakeStatus.FINISHED) {
                        endedOnOwnRecord = true;
                        wrap(ByteBuffer.wrap(frame), netOut); // the frame joins the last handshake record
                        flush(netOut);
                        return;
                    }
                    if (status != HandshakeStatus.NEED_WRAP) {
                        flush(netOut);
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    flush(netOut);
                    SSLEngineResult result = unwrapSome();
                    status = result.getHandshakeStatus();
                    if (status == HandshakeStatus.FINISHED) {
                        wrap(ByteBuffer.wrap(frame), netOut); // the server's record ended it: the frame follows alone
                        flush(netOut);
                        return;
                    }
                }
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    status = engine.getHandshakeStatus();
                }
                case FINISHED, NOT_HANDSHAKING -> {
                    wrap(ByteBuffer.wrap(frame), netOut);
                    flush(netOut);
                    return;
                }
                default -> throw new IllegalStateException("handshake status " + status);
            }
        }
    }

    private SSLEngineResult wrap(ByteBuffer app, ByteBuffer netOut) throws SSLException {
        SSLEngineResult result = engine.wrap(app, netOut);
        if (result.getStatus() != SSLEngineResult.Status.OK) {
            throw new SSLException("wrap: " + result);
        }
        return result;
    }

    private void flush(ByteBuffer netOut) throws IOException {
        netOut.flip();
        out.write(netOut.array(), netOut.arrayOffset() + netOut.position(), netOut.remaining());
        out.flush();
        netOut.clear();
    }

    /** Unwraps one record, reading from the socket when none is whole yet; a read past the timeout throws. */
    private SSLEngineResult unwrapSome() throws IOException {
        while (true) {
            netIn.flip();
            SSLEngineResult result = engine.unwrap(netIn, appIn);
            netIn.compact();
            if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                int n = in.read(netIn.array(), netIn.arrayOffset() + netIn.position(), netIn.remaining());
                if (n < 0) {
                    throw new IOException("the server closed the connection");
                }
                netIn.position(netIn.position() + n);
                continue;
            }
            if (result.getStatus() != SSLEngineResult.Status.OK) {
                throw new SSLException("unwrap: " + result);
            }
            return result;
        }
    }

    /**
     * The body of the first frame the server sends.
     *
     * @throws java.net.SocketTimeoutException if it does not come within the timeout
     */
    public byte[] readFrame() throws IOException {
        while (true) {
            appIn.flip();
            if (appIn.remaining() >= Integer.BYTES) {
                int length = appIn.getInt(appIn.position());
                if (appIn.remaining() >= Integer.BYTES + length) {
                    byte[] body = new byte[length];
                    appIn.position(appIn.position() + Integer.BYTES);
                    appIn.get(body);
                    appIn.compact();
                    return body;
                }
            }
            appIn.compact();
            unwrapSome();
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
