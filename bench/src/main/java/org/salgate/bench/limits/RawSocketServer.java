package org.salgate.bench.limits;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;

/** The server side of {@link RawSocketProtocol}: one thread per connection, blocking I/O. */
public final class RawSocketServer implements AutoCloseable {

    private final ServerSocket server;
    private final Thread acceptor;

    public RawSocketServer() throws IOException {
        server = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::acceptLoop, "raw-socket-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                Thread t = new Thread(() -> serve(s), "raw-socket-" + s.getPort());
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void serve(Socket socket) {
        try (socket) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 65536));
            OutputStream out = socket.getOutputStream();
            int mode = in.read();
            if (mode == RawSocketProtocol.ECHO) {
                echo(in, new DataOutputStream(out));
            } else if (mode == RawSocketProtocol.STREAM) {
                stream(in.readInt(), out);
            }
        } catch (EOFException | SocketException e) {
            // the client went away: the normal end of a connection here
        } catch (IOException e) {
            System.err.println("raw socket connection failed: " + e);
        }
    }

    private static void echo(DataInputStream in, DataOutputStream out) throws IOException {
        byte[] buf = new byte[1024];
        while (true) {
            int n = in.readInt();
            if (n < 0 || n > 16 * 1024 * 1024) {
                throw new IOException("bad echo frame length " + n);
            }
            if (buf.length < n) {
                buf = new byte[n];
            }
            in.readFully(buf, 0, n);
            out.writeInt(n);
            out.write(buf, 0, n);
            out.flush();
        }
    }

    private static void stream(int size, OutputStream out) throws IOException {
        if (size < RawSocketProtocol.MIN_STREAM_SIZE || size > 16 * 1024 * 1024) {
            throw new IOException("bad stream size " + size);
        }
        byte[] msg = new byte[size];
        ByteBuffer header = ByteBuffer.wrap(msg);
        for (long seq = 0; ; seq++) {
            header.putLong(0, seq);
            out.write(msg);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
