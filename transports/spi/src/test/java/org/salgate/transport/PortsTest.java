package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class PortsTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void aPortStillListenedOnIsReportedBusyAfterTheTimeout() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 50, LOOPBACK)) {
            assertFalse(Ports.awaitReleased(LOOPBACK, busy.getLocalPort(), Duration.ofMillis(50)));
        }
    }

    @Test
    void aClosedPortIsReportedFree() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(LOOPBACK, 0));
            port = socket.getLocalPort();
        }
        assertTrue(Ports.awaitReleased(LOOPBACK, port, Duration.ofSeconds(2)));
    }
}
