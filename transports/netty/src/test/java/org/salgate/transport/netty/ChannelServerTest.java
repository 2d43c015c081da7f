package org.salgate.transport.netty;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import org.junit.jupiter.api.Test;
import org.salgate.transport.ServerOptions;

/** How the listening side of the transports on Netty reports a port it cannot take. */
class ChannelServerTest {

    @Test
    void aPortInUseIsRefusedWithABindException() throws Exception {
        ChannelServer taken = ChannelServer.bind(ServerOptions.builder().build(), "taken", ch -> { });
        try {
            int port = taken.localAddress().getPort();
            IOException e = assertThrows(IOException.class, () -> ChannelServer.bind(
                    ServerOptions.builder().host("127.0.0.1").port(port).build(), "second", ch -> { }));
            assertInstanceOf(BindException.class, e.getCause(), e.toString());
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
        } finally {
            taken.close();
        }
    }
}
