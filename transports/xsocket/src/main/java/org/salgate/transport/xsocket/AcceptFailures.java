package org.salgate.transport.xsocket;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.salgate.transport.AcceptBackoff;

/**
 * Paces xSocket's accept loop when accepting fails. xSocket 2.8.15's loop ({@code IoAcceptor})
 * retries at once after a failed accept and logs a warning each time, so running out of
 * descriptors made it spin and flood the log; the only call it makes on a failure is that log
 * call. This filter on its logger hands the failure to the server's {@link AcceptBackoff}, which
 * logs the run once and pauses the accept thread, and drops xSocket's own line. The accept thread
 * is xSocket's {@code xServer:<port>}, which tells the servers of one process apart.
 */
final class AcceptFailures implements Filter {

    private static final String ACCEPT_FAILED = "error occured while accepting connection";
    // Held so the configured logger is not collected and its filter lost.
    private static final Logger ACCEPTOR = Logger.getLogger("org.xsocket.connection.IoAcceptor");
    private static final Map<String, AcceptBackoff> BY_THREAD = new ConcurrentHashMap<>();

    static {
        ACCEPTOR.setFilter(new AcceptFailures());
    }

    private AcceptFailures() {}

    /** Paces the accept loop of the server on {@code port} with {@code backoff}; null forgets it. */
    static void watch(int port, AcceptBackoff backoff) {
        if (backoff == null) {
            BY_THREAD.remove("xServer:" + port);
        } else {
            BY_THREAD.put("xServer:" + port, backoff);
        }
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        String message = record.getMessage();
        if (message == null || !message.startsWith(ACCEPT_FAILED)) {
            return true;
        }
        AcceptBackoff backoff = BY_THREAD.get(Thread.currentThread().getName());
        if (backoff == null) {
            return true;
        }
        backoff.failed(new IOException(message.substring(ACCEPT_FAILED.length()).replaceFirst("^:\\s*", "")));
        return false;
    }
}
