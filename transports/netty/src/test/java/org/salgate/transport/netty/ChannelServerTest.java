package org.salgate.transport.netty;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
import java.net.BindException;
import org.junit.jupiter.api.Test;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.wire.Message;

/** How the listening side of the transports on Netty reports a port it cannot take. */
class ChannelServerTest {

    @Test
    void aPortInUseIsRefusedWithABindException() throws Exception {
        ChannelServer taken = server(ServerOptions.builder().build(), "taken");
        taken.start(NO_HANDLER);
        try {
            int port = taken.localAddress().getPort();
            ChannelServer second = server(ServerOptions.builder().host("127.0.0.1").port(port).build(), "second");
            IOException e = assertThrows(IOException.class, () -> second.start(NO_HANDLER));
            assertInstanceOf(BindException.class, e.getCause(), e.toString());
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
        } finally {
            taken.close();
        }
    }

    private static ChannelServer server(ServerOptions options, String name) {
        return new ChannelServer(options, name) {
            @Override
            protected void initChannel(SocketChannel ch, ServerHandler handler) {
            }
        };
    }

    private static final ServerHandler NO_HANDLER = new ServerHandler() {
        @Override
        public void sessionOpened(Session session) {
        }

        @Override
        public void messageReceived(Session session, Message message) {
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
        }
    };
}
