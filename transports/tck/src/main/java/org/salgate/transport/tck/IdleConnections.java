package org.salgate.transport.tck;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

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

    @Override
    public void close() throws IOException {
        for (SocketChannel c : channels) {
            c.close();
        }
        channels.clear();
    }
}
