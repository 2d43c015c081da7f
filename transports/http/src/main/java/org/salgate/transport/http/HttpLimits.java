package org.salgate.transport.http;

import io.netty.handler.codec.http.HttpDecoderConfig;
import java.util.Map;
import org.salgate.transport.ServerOptions;

/**
 * The bounds an HTTP server puts on what a connection sends: request line and header sizes, the
 * largest body (the frame limit), and how long headers may take.
 *
 * @param maxInitialLineBytes the longest request line; a longer one is answered 414
 * @param maxHeaderBytes the most header bytes of one request; more is answered 431
 * @param maxBodyBytes the largest request body, and the largest WebSocket message; more is answered 413
 * @param headerTimeoutMillis how long a request's headers may take once they started (408), and
 *                            how long an idle keep-alive connection stays open
 */
record HttpLimits(int maxInitialLineBytes, int maxHeaderBytes, int maxBodyBytes, long headerTimeoutMillis) {

    static final int DEFAULT_MAX_INITIAL_LINE_BYTES = 4096;
    static final int DEFAULT_MAX_HEADER_BYTES = 8192;
    static final long DEFAULT_HEADER_TIMEOUT_MILLIS = 10_000;

    static HttpLimits of(ServerOptions options) {
        Map<String, String> p = options.properties();
        long timeout = DEFAULT_HEADER_TIMEOUT_MILLIS;
        String value = p.get(HttpTransportProvider.HEADER_TIMEOUT_MILLIS);
        if (value != null) {
            try {
                timeout = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(HttpTransportProvider.HEADER_TIMEOUT_MILLIS
                        + " must be a number of milliseconds, got '" + value + "'", e);
            }
            if (timeout <= 0) {
                throw new IllegalArgumentException(HttpTransportProvider.HEADER_TIMEOUT_MILLIS
                        + " must be positive, got " + timeout);
            }
        }
        return new HttpLimits(DEFAULT_MAX_INITIAL_LINE_BYTES, DEFAULT_MAX_HEADER_BYTES, options.maxFrameBytes(), timeout);
    }

    HttpDecoderConfig decoderConfig() {
        return new HttpDecoderConfig()
                .setMaxInitialLineLength(maxInitialLineBytes)
                .setMaxHeaderSize(maxHeaderBytes)
                .setMaxChunkSize(64 * 1024);
    }
}
