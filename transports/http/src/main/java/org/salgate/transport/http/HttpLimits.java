package org.salgate.transport.http;

import io.netty.handler.codec.http.HttpDecoderConfig;
import java.util.Map;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportProperties;

/**
 * The bounds an HTTP server puts on what a connection sends.
 *
 * @param maxBodyBytes the largest request body (413) and WebSocket message: the frame limit
 * @param headerTimeoutMillis see {@link HttpTransportProvider#HEADER_TIMEOUT_MILLIS}
 * @param bodyTimeoutMillis see {@link HttpTransportProvider#BODY_TIMEOUT_MILLIS}
 */
record HttpLimits(int maxBodyBytes, long headerTimeoutMillis, long bodyTimeoutMillis) {

    /** The longest request line (414). */
    static final int MAX_INITIAL_LINE_BYTES = 4096;
    /** The most header bytes of one request (431). */
    static final int MAX_HEADER_BYTES = 8192;
    static final int DEFAULT_HEADER_TIMEOUT_MILLIS = 10_000;
    /** 30 s: a 16 MiB body at 4.5 Mbit/s; slower links raise {@value HttpTransportProvider#BODY_TIMEOUT_MILLIS}. */
    static final int DEFAULT_BODY_TIMEOUT_MILLIS = 30_000;
    /** What a WebSocket may hold of unfinished messages before its hello (some 100 bytes) is accepted. */
    static final int PRE_AUTHENTICATION_BYTES = 64 * 1024;
    /** Fragments of one WebSocket message; more close the connection. */
    static final int MAX_FRAGMENTS_PER_MESSAGE = 1024;

    static HttpLimits of(ServerOptions options) {
        Map<String, String> p = options.properties();
        return new HttpLimits(options.maxFrameBytes(),
                TransportProperties.positiveInt(p, HttpTransportProvider.HEADER_TIMEOUT_MILLIS, DEFAULT_HEADER_TIMEOUT_MILLIS),
                TransportProperties.positiveInt(p, HttpTransportProvider.BODY_TIMEOUT_MILLIS, DEFAULT_BODY_TIMEOUT_MILLIS));
    }

    HttpDecoderConfig decoderConfig() {
        return new HttpDecoderConfig()
                .setMaxInitialLineLength(MAX_INITIAL_LINE_BYTES)
                .setMaxHeaderSize(MAX_HEADER_BYTES)
                .setMaxChunkSize(64 * 1024)
                .setAllowDuplicateContentLengths(false)
                .setUseRfc9112TransferEncoding(true);
    }
}
