package org.salgate.transport.xsocket;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The xSocket 2.8 transport, named {@value #NAME}: non-blocking connections carrying
 * length-prefixed frames (see {@link org.salgate.wire.Framing}).
 *
 * <p>Two xSocket settings are made here unless the application made them first, before xSocket
 * reads them: its {@code java.util.logging} output is kept to warnings, and its read buffers are
 * not preallocated. Preallocated, each read is sliced from a pooled 16 KB array whose unused tail
 * stays softly held: against a client that stopped reading while others streamed over TLS, the
 * agent's heap grew by hundreds of MiB of such buffers, past the outbound queues' bound.
 */
public final class XsocketTransportProvider implements TransportProvider {

    /** The name of this transport. */
    public static final String NAME = "xsocket";

    // Held so the configured logger is not collected and its level lost.
    private static final Logger XSOCKET_LOG = Logger.getLogger("org.xsocket");

    static {
        if (XSOCKET_LOG.getLevel() == null) {
            XSOCKET_LOG.setLevel(Level.WARNING);
        }
        for (String side : new String[] {"server", "client"}) {
            String preallocation = "org.xsocket.connection." + side + ".readbuffer.preallocation.on";
            if (System.getProperty(preallocation) == null) {
                System.setProperty(preallocation, "false");
            }
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "xSocket 2.8 non-blocking connections, length-prefixed frames";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new XsocketServer(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new XsocketClient(options);
    }
}
