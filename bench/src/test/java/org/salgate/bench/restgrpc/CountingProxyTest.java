package org.salgate.bench.restgrpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class CountingProxyTest {

    @Test
    @Timeout(20)
    void relaysBytesUnchangedAndCountsEachWay() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread echoTwice = new Thread(() -> {
                try (Socket s = server.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                    byte[] request = new DataInputStream(in).readNBytes(5);
                    out.write(request);
                    out.write(request);
                    out.flush();
                    in.read();
                } catch (Exception ignored) {
                    // the test fails on what the client sees
                }
            });
            echoTwice.start();
            try (CountingProxy proxy = new CountingProxy(server.getLocalPort());
                 Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
                client.getOutputStream().write("hello".getBytes());
                byte[] back = new DataInputStream(client.getInputStream()).readNBytes(10);
                assertArrayEquals("hellohello".getBytes(), back);
                assertEquals(5, proxy.up());
                assertEquals(10, proxy.down());
            }
            echoTwice.join(5000);
        }
    }
}
