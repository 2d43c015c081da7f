package org.salgate.transport.socket;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The blocking-socket baseline: {@link java.net.Socket}s carrying length-prefixed frames (see
 * {@link org.salgate.wire.Framing}), a reader and a writer thread per session. Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 *
 * <p>Server property {@value #MAX_QUEUED_BYTES}: the most bytes queued for one session before it is
 * closed as a client that stopped reading (default: the high-water mark plus four maximum frames).
 * Senders that respect {@link org.salgate.transport.Session#isWritable()} never get near it.
 */
public final class SocketTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "socket";

    /** Server property: the hard limit of one session's outbound queue, in bytes. */
    public static final String MAX_QUEUED_BYTES = "maxQueuedBytes";

    /** Size of the buffered streams on each socket. */
    static final int BUFFER_BYTES = 64 * 1024;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int priority() {
        return 1;
    }

    @Override
    public String description() {
        return "blocking java.net sockets, a thread per connection (the baseline)";
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new SocketTransportServer(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new SocketTransportClient(options);
    }

    static long maxQueuedBytes(ServerOptions options) {
        String configured = options.properties().get(MAX_QUEUED_BYTES);
        if (configured != null) {
            try {
                long value = Long.parseLong(configured.trim());
                if (value >= options.writeHighWaterBytes()) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
            throw new IllegalArgumentException("server property " + MAX_QUEUED_BYTES + " must be a number of bytes"
                    + " at least the high-water mark (" + options.writeHighWaterBytes() + "), got '" + configured + "'");
        }
        return options.writeHighWaterBytes() + 4L * options.maxFrameBytes();
    }
}
