package org.salgate.transport.mina;

import com.sun.management.UnixOperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.write.WriteRequest;
import org.apache.mina.transport.socket.nio.NioSession;
import org.salgate.transport.AcceptBackoff;

/**
 * A server's I/O processors, to which its acceptor hands each session it accepts, on its own
 * thread: that thread waits here while fewer than {@link #SPARE_DESCRIPTORS} file descriptors are
 * free, pausing as an {@link AcceptBackoff} says, and new connections wait in the listen backlog.
 * So MINA's acceptor never meets an accept that fails for want of descriptors, which it would log
 * at ERROR with its stack trace every 50 ms. Off Unix, where the JDK does not count them, it may.
 */
final class AcceptPacer implements IoProcessor<NioSession> {

    static final long SPARE_DESCRIPTORS = 4;

    private final IoProcessor<NioSession> processors;
    private final AcceptBackoff backoff;
    private final UnixOperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean()
            instanceof UnixOperatingSystemMXBean unix ? unix : null;
    /** Sessions to accept before descriptors are counted again; the acceptor's thread only. */
    private long uncounted;
    private volatile boolean stopped;

    AcceptPacer(IoProcessor<NioSession> processors, AcceptBackoff backoff) {
        this.processors = processors;
        this.backoff = backoff;
    }

    @Override
    public void add(NioSession session) {
        if (os != null && --uncounted <= 0) {
            awaitSpareDescriptors();
        }
        processors.add(session);
    }

    private void awaitSpareDescriptors() {
        long free;
        while ((free = os.getMaxFileDescriptorCount() - os.getOpenFileDescriptorCount()) < SPARE_DESCRIPTORS
                && !stopped) {
            backoff.failed(new IOException("only " + free + " file descriptors are free"));
        }
        backoff.accepted();
        // a session takes a descriptor at least: count again before half of the spare ones may be gone
        uncounted = Math.max(1, (free - SPARE_DESCRIPTORS) / 2);
    }

    /** The server closes: the acceptor waits for descriptors no more. */
    void stop() {
        stopped = true;
    }

    // the rest is the processors' own
    @Override public boolean isDisposing() { return processors.isDisposing(); }
    @Override public boolean isDisposed() { return processors.isDisposed(); }
    @Override public void dispose() { processors.dispose(); }
    @Override public void flush(NioSession session) { processors.flush(session); }
    @Override public void write(NioSession session, WriteRequest request) { processors.write(session, request); }
    @Override public void updateTrafficControl(NioSession session) { processors.updateTrafficControl(session); }
    @Override public void remove(NioSession session) { processors.remove(session); }
}
