package org.salgate.transport.http;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The HTTP transport: HTTP/1.1 on Netty's HTTP codec. Salgate clients exchange their frames as
 * binary WebSocket messages on {@value #WEBSOCKET_PATH}; the REST/JSON API, its event streams and
 * the web page come from an {@link HttpDoor}. What connections hold draws on the server's memory
 * budget; the limits, timeouts and browser rules are in docs/security.md. Registered in
 * {@code META-INF/services/org.salgate.transport.TransportProvider}.
 */
public final class HttpTransportProvider implements TransportProvider {

    /** The name that selects this transport. */
    public static final String NAME = "http";

    /** Where salgate clients open their WebSocket. */
    public static final String WEBSOCKET_PATH = "/api/ws";

    /** Server property: the time for a request's headers (408), and for an idle keep-alive connection; 10 s. */
    public static final String HEADER_TIMEOUT_MILLIS = "http.headerTimeoutMillis";

    /** Server property: the time for a request's body once its headers came (408), and for a WebSocket message (1008); 30 s. */
    public static final String BODY_TIMEOUT_MILLIS = "http.bodyTimeoutMillis";

    /**
     * Server property: web origins besides the server's own whose pages may open a WebSocket or send
     * state-changing requests, comma-separated {@code scheme://host[:port]}; the agent's {@code --allow-origin}.
     */
    public static final String ALLOW_ORIGINS = "http.allowOrigins";

    /**
     * Server property: host names the server answers for besides its own (loopback names, the name
     * or address it was bound by, the address each connection reached, its certificate's names),
     * comma-separated; the agent's {@code --allow-host}.
     */
    public static final String ALLOW_HOSTS = "http.allowHosts";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return SingleUseServer.classesPresent(getClass(), "io.netty.handler.codec.http.HttpServerCodec",
                "io.netty.channel.nio.NioIoHandler");
    }

    @Override
    public int priority() {
        return 8;
    }

    @Override
    public String description() {
        return "HTTP/1.1 on Netty: WebSocket frames for clients, REST/JSON, Server-Sent Events and a web page; on "
                + "Java NIO";
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
