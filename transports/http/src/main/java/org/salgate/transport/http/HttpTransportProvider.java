package org.salgate.transport.http;

import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.SingleUseServer;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * The HTTP transport: HTTP/1.1 on Netty's HTTP codec. Salgate clients exchange their frames as
 * binary WebSocket messages on {@value #WEBSOCKET_PATH}; people and other programs use the REST/JSON
 * API and Server-Sent Events under {@code /api}, and a browser gets a live page at {@code /}.
 * Registered in {@code META-INF/services/org.salgate.transport.TransportProvider}.
 *
 * <p>Server properties (all optional): {@value #HEADER_TIMEOUT_MILLIS}, {@value #BODY_TIMEOUT_MILLIS},
 * {@value #ALLOW_ORIGINS} and {@value #ALLOW_HOSTS}.
 *
 * <p>What a connection holds (request bodies being received, answers not yet sent, WebSocket
 * messages not yet whole, a session's queue) draws on the server's memory budget
 * ({@link ServerOptions.Limits#maxBufferedBytes()}). A connection that sends requests without
 * reading the answers is not read while the answers wait, and at most
 * {@value HttpLimits#MAX_PIPELINED_REQUESTS} of its requests are held. A request whose bearer token
 * the server handler does not {@linkplain org.salgate.transport.ServerHandler#admits admit} is
 * answered 401 from its headers, its body unread.
 *
 * <p>Browser rules: a request for a host the server does not serve is answered 421 (DNS
 * rebinding); a WebSocket handshake or a POST, PUT, PATCH or DELETE whose {@code Origin} is not the
 * server's own nor one of {@value #ALLOW_ORIGINS} is answered 403; such a request with a body that
 * is not {@code application/json} or {@code application/xml} is answered 415. No CORS header is
 * ever sent. Requests with no {@code Origin} (programs, not browsers) are not checked for it.
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

    /**
     * Server property: how long a request's body may take to arrive once its headers did (answered
     * 408 and closed), and how long a WebSocket message may take from its first byte to its last
     * (closed with 1008); default {@value HttpLimits#DEFAULT_BODY_TIMEOUT_MILLIS} ms.
     */
    public static final String BODY_TIMEOUT_MILLIS = "http.bodyTimeoutMillis";

    /**
     * Server property: the web origins besides the server's own whose pages may open a WebSocket or
     * send state-changing requests, comma-separated, each {@code scheme://host[:port]} (such as
     * {@code https://console.example:8443}); default none. The agent's {@code --allow-origin} sets it.
     */
    public static final String ALLOW_ORIGINS = "http.allowOrigins";

    /**
     * Server property: host names (or addresses) the server answers requests for besides its own,
     * comma-separated, such as the name a reverse proxy forwards; default none. Its own are the
     * loopback names when bound to loopback or a wildcard, the bound address, the machine's
     * addresses when bound to a wildcard, and the names in its TLS certificate. The agent's
     * {@code --allow-host} sets it.
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
