package org.salgate.plugin.modbus;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * A Modbus TCP device in the test's JVM, for what a real one cannot be made to do on cue: it reads
 * registers (function codes 3 and 4) from {@code registers}, leaves unanswered the requests
 * {@code silent} picks (by their rank, 0 the first request it receives), and notes when each request
 * arrived and on which connection.
 */
final class FakeTcpDevice implements AutoCloseable {

    /** One request the device received: when ({@link System#nanoTime()}), on which connection, which function. */
    record Received(long nanos, int connection, int function, int address, int count) {
    }

    private final ServerSocket server;
    private final int[] registers;
    private final IntPredicate silent;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();

    FakeTcpDevice(IntPredicate silent, int... registers) throws IOException {
        this.server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        this.registers = registers;
        this.silent = silent;
        Thread acceptor = new Thread(this::accept, "fake-modbus-device");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String endpoint() {
        return "tcp:127.0.0.1:" + server.getLocalPort();
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    int connections() {
        return connections.get();
    }

    private void accept() {
        try {
            while (true) {
                Socket s = server.accept();
                sockets.add(s);
                int connection = connections.incrementAndGet();
                Thread t = new Thread(() -> serve(s, connection), "fake-modbus-connection-" + connection);
                t.setDaemon(true);
                t.start();
            }
        } catch (IOException closed) {
            // the test closed the device
        }
    }

    private void serve(Socket s, int connection) {
        try (s) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            while (true) {
                int transaction = in.readUnsignedShort();
                in.readUnsignedShort();
                int length = in.readUnsignedShort();
                int unit = in.readUnsignedByte();
                byte[] pdu = new byte[length - 1];
                in.readFully(pdu);
                int function = pdu[0] & 0xFF;
                int address = ((pdu[1] & 0xFF) << 8) | (pdu[2] & 0xFF);
                int count = ((pdu[3] & 0xFF) << 8) | (pdu[4] & 0xFF);
                int rank = received.size();
                received.add(new Received(System.nanoTime(), connection, function, address, count));
                if (silent.test(rank)) {
                    continue;
                }
                out.writeShort(transaction);
                out.writeShort(0);
                if (function == 3 || function == 4) {
                    out.writeShort(3 + 2 * count);
                    out.writeByte(unit);
                    out.writeByte(function);
                    out.writeByte(2 * count);
                    for (int i = 0; i < count; i++) {
                        out.writeShort(address + i < registers.length ? registers[address + i] : 0);
                    }
                } else {
                    // a write: echo the request's address and count or value, as the specification says
                    out.writeShort(6);
                    out.writeByte(unit);
                    out.write(pdu, 0, 5);
                }
                out.flush();
            }
        } catch (IOException closed) {
            // the driver closed the connection
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
