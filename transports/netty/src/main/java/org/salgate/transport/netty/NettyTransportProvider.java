package org.salgate.transport.netty;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The Netty transport: length-prefixed frames (see {@link org.salgate.wire.Framing}) over TCP on
 * Netty's event loops, on the I/O mechanism {@link NettyIo} chooses. Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 */
public final class NettyTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "netty";

    private final NettyIo io;

    /** On the process's {@link NettyIo#current() I/O mechanism}. */
    public NettyTransportProvider() {
        this(null);
    }

    /** On the I/O mechanism {@code io} whatever {@value NettyIo#PROPERTY} says, or the process's if null. */
    public NettyTransportProvider(NettyIo io) {
        this.io = io;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        try {
            Class.forName("io.netty.channel.nio.NioIoHandler", false, getClass().getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public String description() {
        return "Netty 4 over TCP, length-prefixed frames, non-blocking I/O on "
                + (io != null ? io.describe() : NettyIo.describeCurrent());
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new NettyTransportServer(options, io);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new NettyTransportClient(options, io);
    }
}
