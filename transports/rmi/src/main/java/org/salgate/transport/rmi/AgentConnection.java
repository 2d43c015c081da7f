package org.salgate.transport.rmi;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketImpl;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A connection accepted by an agent, as RMI is given it (offering what RMI's connection handler uses
 * of a socket): no read waits longer than the agent's read timeout (RMI's own is two hours), and a
 * connection that opens with {@link #BOOTSTRAP} instead of RMI's own magic ("JRMI") is answered with
 * the agent's stub and closed, RMI seeing the end of its input. That is how a client gets the agent
 * (see {@link RmiTransportClient}): the agent runs no registry, so nothing but the agent decides what
 * its port hands out. The first bytes are read on RMI's connection thread, not when accepting, so a
 * slow peer holds up only its own connection; RMI closes anything that is not JRMP.
 */
final class AgentConnection extends Socket {

    /**
     * What a client sends to be answered with the agent's stub: "SALGATE", as long as the header a
     * JRMP client sends before it waits for an answer, and longer than a TLS record's header (so an
     * agent with TLS refuses a plain client's bootstrap at once).
     */
    static final byte[] BOOTSTRAP = "SALGATE".getBytes(StandardCharsets.US_ASCII);

    private final Socket socket;
    private final int readTimeoutMillis;
    private final InputStream input;

    /**
     * @param stub the agent's stub as an object stream, or null while the agent is not exported yet
     *     (a bootstrap is then closed unanswered)
     */
    AgentConnection(Socket socket, int readTimeoutMillis, byte[] stub) throws IOException {
        super((SocketImpl) null);
        this.socket = socket;
        this.readTimeoutMillis = readTimeoutMillis;
        socket.setSoTimeout(readTimeoutMillis);
        this.input = new FilterInputStream(socket.getInputStream()) {
            private boolean looked;

            @Override
            public int read() throws IOException {
                look();
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                look();
                return in.read(b, off, len);
            }

            private void look() throws IOException {
                if (!looked) {
                    looked = true;
                    in = afterHead(in, stub);
                }
            }
        };
    }

    /**
     * Reads the connection's first bytes: for a bootstrap, answers {@code stub} and closes, and
     * RMI reads nothing more; otherwise RMI reads them again, then the rest.
     */
    private InputStream afterHead(InputStream in, byte[] stub) throws IOException {
        byte[] head = in.readNBytes(BOOTSTRAP.length);
        if (!Arrays.equals(head, BOOTSTRAP)) {
            return new SequenceInputStream(new ByteArrayInputStream(head), in);
        }
        if (stub != null) {
            OutputStream out = socket.getOutputStream();
            out.write(stub);
            out.flush();
        }
        socket.close();
        return InputStream.nullInputStream();
    }

    @Override
    public InputStream getInputStream() {
        return input;
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        return socket.getOutputStream();
    }

    /** Sets the read timeout, never above (nor, for 0, without) this connection's bound. */
    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        socket.setSoTimeout(timeout == 0 || timeout > readTimeoutMillis ? readTimeoutMillis : timeout);
    }

    @Override
    public void setTcpNoDelay(boolean on) throws SocketException {
        socket.setTcpNoDelay(on);
    }

    @Override
    public void setKeepAlive(boolean on) throws SocketException {
        socket.setKeepAlive(on);
    }

    @Override
    public InetAddress getInetAddress() {
        return socket.getInetAddress();
    }

    @Override
    public int getPort() {
        return socket.getPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
