package org.salgate.bench.workload;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;

import org.salgate.bench.limits.RawSocketProtocol;

/**
 * A client of the framework-free ceiling ({@link RawSocketProtocol}): a blocking socket, no codec.
 * Echo sends {@link Payload#rawBytes()} bytes; a stream reads fixed-size messages on its own thread.
 */
public final class RawSocketChannel implements BenchChannel {

    private final int port;
    private Socket socket;
    private DataInputStream in;
    private DataOutputStream out;
    private byte[] echoBuf = new byte[0];
    private byte[] replyBuf = new byte[0];

    public RawSocketChannel(int port) {
        this.port = port;
    }

    private Socket open(int mode) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setTcpNoDelay(true);
        s.getOutputStream().write(mode);
        return s;
    }

    @Override
    public void call(Payload payload) throws Exception {
        if (socket == null) {
            socket = open(RawSocketProtocol.ECHO);
            in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 65536));
            out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 65536));
        }
        int n = payload.rawBytes();
        if (echoBuf.length != n) {
            echoBuf = new byte[n];
            replyBuf = new byte[n];
        }
        out.writeInt(n);
        out.write(echoBuf);
        out.flush();
        int back = in.readInt();
        if (back != n) {
            throw new IOException("raw echo returned " + back + " bytes for " + n);
        }
        in.readFully(replyBuf, 0, n);
    }

    @Override
    public PreparedStream prepareStream(StreamSpec spec, StreamCounter counter) {
        return () -> start(spec, counter);
    }

    private Subscription start(StreamSpec spec, StreamCounter counter) throws IOException {
        int size = Math.max(RawSocketProtocol.MIN_STREAM_SIZE, spec.sizeBytes());
        Socket s = open(RawSocketProtocol.STREAM);
        DataOutputStream o = new DataOutputStream(s.getOutputStream());
        o.writeInt(size);
        o.flush();
        Thread reader = new Thread(() -> {
            try {
                DataInputStream i = new DataInputStream(new BufferedInputStream(s.getInputStream(), 256 * 1024));
                byte[] rest = new byte[size - 8];
                while (true) {
                    long seq = i.readLong();
                    i.readFully(rest);
                    counter.onMessage(seq, size);
                }
            } catch (IOException e) {
                // closed by stop()
            }
        }, "raw-stream-reader");
        reader.setDaemon(true);
        reader.start();
        return () -> {
            s.close();
            reader.join(10_000);
        };
    }

    @Override
    public void close() {
        try {
            if (socket != null) {
                socket.close();
            }
        } catch (IOException e) {
            // closing anyway
        }
    }
}
