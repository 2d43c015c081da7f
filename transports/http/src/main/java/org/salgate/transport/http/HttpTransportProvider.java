package org.salgate.transport.http;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;
import org.salgate.transport.netty.NettyIo;

/**
 * The HTTP transport: HTTP/1.1 on Netty's HTTP codec. Salgate clients exchange their frames as
 * binary WebSocket messages on {@value #WEBSOCKET_PATH}; people and other programs use the REST/JSON
 * API and Server-Sent Events under {@code /api}, and a browser gets a live page at {@code /}.
 * Registered in {@code META-INF/services/org.salgate.transport.TransportProvider}.
 *
 * <p>Server properties (all optional): {@value #HEADER_TIMEOUT_MILLIS}.
 */
public final class HttpTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "http";

    /** Where salgate clients open their WebSocket. */
    public static final String WEBSOCKET_PATH = "/api/ws";

    /**
     * Server property: how long a connection may take to send a request's headers once it started
     * sending them (answered 408), and how long an idle keep-alive connection stays open; default
     * {@value HttpLimits#DEFAULT_HEADER_TIMEOUT_MILLIS} ms.
     */
    public static final String HEADER_TIMEOUT_MILLIS = "http.headerTimeoutMillis";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        try {
            Class.forName("io.netty.handler.codec.http.HttpServerCodec", false, getClass().getClassLoader());
            Class.forName("io.netty.channel.nio.NioIoHandler", false, getClass().getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Override
    public int priority() {
        return 8;
    }

    @Override
    public String description() {
        return "HTTP/1.1 on Netty: WebSocket frames for clients, REST/JSON, Server-Sent Events and a web page; on "
                + NettyIo.describeCurrent();
    }

    @Override
    public TransportServer createServer(ServerOptions options) {
        return new HttpTransportServer(options);
    }

    @Override
    public TransportClient createClient(ClientOptions options) {
        return new HttpTransportClient(options);
    }
}
