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
 * length-prefixed frames (see {@link org.salgate.wire.Framing}), written with
 * {@code FlushMode.ASYNC}. A server connection's callbacks run on its xSocket dispatcher, one at a
 * time; a client's on xSocket's worker pool, one at a time per connection. Outbound bytes are
 * bounded by each connection's {@link org.salgate.transport.OutboundQueue}.
 *
 * <p>Two xSocket settings are set here unless the application set them first, before xSocket
 * reads them: its {@code java.util.logging} output is kept to warnings, and its read buffers are
 * not preallocated ({@value #SERVER_PREALLOCATION}, {@value #CLIENT_PREALLOCATION}). Preallocated,
 * each record's buffer is sliced from a pooled 16 KB array whose unused tail stays softly held:
 * against a client that stopped reading while others streamed over TLS, the agent's heap grew by
 * hundreds of MiB of such buffers, past the outbound queues' bound.
 */
public final class XsocketTransportProvider implements TransportProvider {

    /** The name of this transport. */
    public static final String NAME = "xsocket";

    static final String SERVER_PREALLOCATION = "org.xsocket.connection.server.readbuffer.preallocation.on";
    static final String CLIENT_PREALLOCATION = "org.xsocket.connection.client.readbuffer.preallocation.on";

    // Held so the configured logger is not collected and its level lost.
    private static final Logger XSOCKET_LOG = Logger.getLogger("org.xsocket");

    static {
        if (XSOCKET_LOG.getLevel() == null) {
            XSOCKET_LOG.setLevel(Level.WARNING);
        }
        for (String key : new String[] {SERVER_PREALLOCATION, CLIENT_PREALLOCATION}) {
            if (System.getProperty(key) == null) {
                System.setProperty(key, "false");
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
