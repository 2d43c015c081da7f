package org.salgate.transport.http;

import io.netty.handler.codec.http.HttpDecoderConfig;
import java.util.Map;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProperties;

/**
 * The bounds an HTTP server puts on what a connection sends: request line and header sizes, the
 * largest body (the frame limit), how long headers and bodies may take, how many pipelined
 * requests a connection may have waiting, and what a peer may send before it is authenticated.
 *
 * @param maxInitialLineBytes the longest request line; a longer one is answered 414
 * @param maxHeaderBytes the most header bytes of one request; more is answered 431
 * @param maxBodyBytes the largest request body, and the largest WebSocket message; more is answered 413
 * @param headerTimeoutMillis how long a request's headers may take once they started (408), and
 *                            how long an idle keep-alive connection stays open
 * @param bodyTimeoutMillis how long a request's body may take once its headers arrived (408), and
 *                          how long a WebSocket message may take from its first byte to its last
 */
record HttpLimits(int maxInitialLineBytes, int maxHeaderBytes, int maxBodyBytes, long headerTimeoutMillis,
                  long bodyTimeoutMillis) {

    static final int DEFAULT_MAX_INITIAL_LINE_BYTES = 4096;
    static final int DEFAULT_MAX_HEADER_BYTES = 8192;
    static final int DEFAULT_HEADER_TIMEOUT_MILLIS = 10_000;
    /** 30 s: a 16 MiB body at 4.5 Mbit/s; slower links raise {@value HttpTransportProvider#BODY_TIMEOUT_MILLIS}. */
    static final int DEFAULT_BODY_TIMEOUT_MILLIS = 30_000;
    /**
     * Requests of one connection received and not yet answered, the one being answered included;
     * past it the connection is not read until an answer leaves. Browsers do not pipeline; 16 is
     * more than any client that reads its answers keeps waiting.
     */
    static final int MAX_PIPELINED_REQUESTS = 16;
    /**
     * What a WebSocket may hold of unfinished messages before its hello is accepted: a hello is
     * some 100 bytes, so 64 KiB leaves room for any honest one.
     */
    static final int PRE_AUTHENTICATION_BYTES = 64 * 1024;
    /** Fragments of one WebSocket message; more close the connection (a message seldom has more than one). */
    static final int MAX_FRAGMENTS_PER_MESSAGE = 1024;

    static HttpLimits of(ServerOptions options) {
        Map<String, String> p = options.properties();
        return new HttpLimits(DEFAULT_MAX_INITIAL_LINE_BYTES, DEFAULT_MAX_HEADER_BYTES, options.maxFrameBytes(),
                TransportProperties.positiveInt(p, HttpTransportProvider.HEADER_TIMEOUT_MILLIS, DEFAULT_HEADER_TIMEOUT_MILLIS),
                TransportProperties.positiveInt(p, HttpTransportProvider.BODY_TIMEOUT_MILLIS, DEFAULT_BODY_TIMEOUT_MILLIS));
    }

    HttpDecoderConfig decoderConfig() {
        return new HttpDecoderConfig()
                .setMaxInitialLineLength(maxInitialLineBytes)
                .setMaxHeaderSize(maxHeaderBytes)
                .setMaxChunkSize(64 * 1024)
                .setAllowDuplicateContentLengths(false)
                .setUseRfc9112TransferEncoding(true);
    }
}
