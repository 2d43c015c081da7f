package org.salgate.transport.tck;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * TCP connections that connect and then say nothing, as a hostile or broken peer would hold them.
 * {@link #burst} starts every connect at once, as many clients arriving together do, so a small
 * listen backlog shows as connects that wait for the client's SYN to be retried.
 */
public final class IdleConnections implements AutoCloseable {

    private final List<SocketChannel> channels = new ArrayList<>();

    /**
     * Starts {@code count} connects to {@code port} on loopback at once and waits up to
     * {@code timeoutMillis} for them all.
     *
     * @return how many connected; the others were closed
     */
    public int burst(int port, int count, long timeoutMillis) throws IOException {
        InetSocketAddress target = new InetSocketAddress("127.0.0.1", port);
        int connected = 0;
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < count; i++) {
                SocketChannel c = SocketChannel.open();
                c.configureBlocking(false);
                c.setOption(StandardSocketOptions.SO_LINGER, 0); // closing resets: no TIME_WAIT pile-up
                if (c.connect(target)) {
                    channels.add(c);
                    connected++;
                } else {
                    c.register(selector, SelectionKey.OP_CONNECT);
                }
            }
            long deadline = System.currentTimeMillis() + timeoutMillis;
            while (!selector.keys().isEmpty()) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    break;
                }
                selector.select(left);
                for (SelectionKey key : selector.selectedKeys()) {
                    SocketChannel c = (SocketChannel) key.channel();
                    key.cancel();
                    try {
                        if (c.finishConnect()) {
                            channels.add(c);
                            connected++;
                            continue;
                        }
                    } catch (IOException refused) {
                        // counted as not connected
                    }
                    c.close();
                }
                selector.selectedKeys().clear();
                selector.selectNow(); // deregisters the cancelled keys
            }
            for (SelectionKey key : selector.keys()) {
                key.channel().close();
            }
        }
        return connected;
    }

    /**
     * Connects one at a time, each within {@code timeoutMillis}, until {@code max} are open or a
     * connect fails.
     *
     * @return how many are open
     */
    public int untilRefused(int port, int max, int timeoutMillis) throws IOException {
        InetSocketAddress target = new InetSocketAddress("127.0.0.1", port);
        for (int i = 0; i < max; i++) {
            SocketChannel c = SocketChannel.open();
            c.setOption(StandardSocketOptions.SO_LINGER, 0);
            try {
                c.socket().connect(target, timeoutMillis);
            } catch (IOException refused) {
                c.close();
                break;
            }
            channels.add(c);
        }
        return channels.size();
    }

    public int size() {
        return channels.size();
    }

    /**
     * How many of these connections the process listening on {@code port} has accepted and holds
     * open, as the kernel's socket tables show (Linux): a connection still waiting in the listen
     * queue has no inode yet, and one the server closed is no longer established. Unlike counting
     * the server's descriptors, this ignores the connections other clients open or close meanwhile.
     */
    public long acceptedBy(int port) throws IOException {
        Set<Integer> ours = new HashSet<>();
        for (SocketChannel c : channels) {
            ours.add(((InetSocketAddress) c.getLocalAddress()).getPort());
        }
        long accepted = 0;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            for (String line : Files.readAllLines(Path.of(table))) {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
                String[] field = line.trim().split("\\s+");
                if (field.length > 9 && field[3].equals("01") && !field[9].equals("0")
                        && tablePort(field[1]) == port && ours.contains(tablePort(field[2]))) {
                    accepted++;
                }
            }
        }
        return accepted;
    }

    /** The port of an address in the socket tables' form, {@code HEXADDRESS:HEXPORT}; -1 for the heading. */
    private static int tablePort(String address) {
        int colon = address.lastIndexOf(':');
        try {
            return Integer.parseInt(address.substring(colon + 1), 16);
        } catch (NumberFormatException heading) {
            return -1;
        }
    }

    @Override
    public void close() throws IOException {
        for (SocketChannel c : channels) {
            c.close();
        }
        channels.clear();
    }
}
