package org.salgate.transport.mina;

import java.io.IOException;
import org.apache.mina.util.ExceptionMonitor;
import org.salgate.transport.AcceptBackoff;

/**
 * Logs a run of failed accepts once. MINA's acceptor pauses a second after a failed accept (out of
 * descriptors, most often) and retries, but reports each failure to the process-wide
 * {@link ExceptionMonitor}, whose default logs it with its stack trace, once a second for as long
 * as it lasts. On a thread of a server's pool (see {@link IoThreads}) an {@link IOException} goes
 * to that server's {@link AcceptBackoff} instead; everything else goes to the monitor that was set
 * before.
 */
final class AcceptFailures extends ExceptionMonitor {

    private final ExceptionMonitor previous;

    private AcceptFailures(ExceptionMonitor previous) {
        this.previous = previous;
    }

    /** Puts this monitor in front of the current one, once per process. */
    static synchronized void install() {
        ExceptionMonitor current = ExceptionMonitor.getInstance();
        if (!(current instanceof AcceptFailures)) {
            ExceptionMonitor.setInstance(new AcceptFailures(current));
        }
    }

    @Override
    public void exceptionCaught(Throwable cause) {
        AcceptBackoff backoff = IoThreads.acceptBackoff();
        if (backoff != null && cause instanceof IOException) {
            backoff.failedAndPaused(cause);
        } else {
            previous.exceptionCaught(cause);
        }
    }
}
