package org.salgate.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

/** Helpers for transports that bind listening ports. */
public final class Ports {

    /**
     * The listen backlog of every transport's server socket: connections the kernel completes
     * before the server accepts them. A backlog below a burst of arriving clients (the JDK's and
     * several libraries' default is 50) drops their SYNs, and each then waits for its retry, 1, 3,
     * 7... s later. The kernel caps it at {@code net.core.somaxconn}; Netty asks for that limit too.
     */
    public static final int ACCEPT_BACKLOG = 4096;

    private Ports() {}

    /**
     * Waits until {@code port} on {@code host} can be bound again, or {@code timeout} passed.
     * Some frameworks close their listening socket on another thread (an acceptor, or a thread
     * blocked in accept), so the port is released a moment after their close method returned;
     * a transport calls this at the end of {@link TransportServer#close()} so that a server can
     * be restarted on the same port at once.
     *
     * @return whether the port was free before the timeout
     */
    public static boolean awaitReleased(InetAddress host, int port, Duration timeout) {
        if (port <= 0) {
            return true;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (ServerSocket probe = new ServerSocket()) {
                probe.setReuseAddress(true);
                probe.bind(new InetSocketAddress(host, port));
                return true;
            } catch (IOException stillBound) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
    }
}
