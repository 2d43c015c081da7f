package org.salgate.transport.http;

import org.salgate.transport.RateLimitedLog;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The HTTP transport's lines about what peers do (refused, timed out, not reading): at most one a
 * second per cause, however often a peer makes it happen.
 */
final class PeerLog {

    private static final RateLimitedLog LOG = new RateLimitedLog(LoggerFactory.getLogger(HttpTransportServer.class),
            Level.WARN);

    private PeerLog() {}

    /** Logs a line of {@code cause} unless one went out less than a second ago. */
    static void log(String cause, String format, Object... args) {
        LOG.log(cause, format, args);
    }
}
