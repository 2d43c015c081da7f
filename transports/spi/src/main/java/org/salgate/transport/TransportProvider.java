package org.salgate.transport;

/**
 * A transport: a way for clients and an agent to exchange {@link org.salgate.wire.Message}s.
 *
 * <p>Registration contract: an implementation has a public zero-argument constructor and is named
 * in {@code META-INF/services/org.salgate.transport.TransportProvider}. Neither the constructor
 * nor {@link #isAvailable()} may throw; a transport that cannot work here reports itself
 * unavailable instead. {@link Transports} does the lookup.
 */
public interface TransportProvider {

    /** The name used to select this transport, such as {@code netty}; lower case, unique. */
    String name();

    /** Whether this transport can run in this JVM. Must not throw. */
    default boolean isAvailable() {
        return true;
    }

    /** Orders transports when several are listed; higher first, then by name. */
    default int priority() {
        return 5;
    }

    /** A one-line description for listings. */
    default String description() {
        return name();
    }

    /** A server bound to nothing yet; {@link TransportServer#start} binds it. */
    TransportServer createServer(ServerOptions options);

    /** A client not connected yet; {@link TransportClient#connect} connects it. */
    TransportClient createClient(ClientOptions options);
}
