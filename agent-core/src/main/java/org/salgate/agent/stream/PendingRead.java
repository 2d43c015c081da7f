package org.salgate.agent.stream;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.salgate.model.Reading;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read a stream of a {@link StreamSource#deferred() deferred} source has handed to the source
 * and not had back: at most one at a time, so that the ticks of a slow device do not pile up.
 * The reading is delivered on the thread that completes it, after the one before.
 */
final class PendingRead {

    private static final Logger LOG = LoggerFactory.getLogger(PendingRead.class);

    private final AtomicBoolean pending = new AtomicBoolean();

    /**
     * Hands a read to {@code source} and {@code deliver}s its reading when it comes, unless the
     * previous read is still pending.
     *
     * @return false when the previous read is still pending: the tick is to be skipped
     */
    boolean start(StreamSource source, Consumer<Reading> deliver) {
        if (!pending.compareAndSet(false, true)) {
            return false;
        }
        CompletionStage<Reading> reading;
        try {
            reading = source.readLater();
        } catch (RuntimeException | LinkageError e) {
            pending.set(false);
            throw e;
        }
        reading.whenComplete((r, failure) -> {
            try {
                if (r != null) {
                    deliver.accept(r);
                } else {
                    LOG.error("stream of {} got no reading", source.label(), failure);
                }
            } catch (RuntimeException | LinkageError | AssertionError e) {
                LOG.error("stream of {} failed delivering a reading", source.label(), e);
            } finally {
                pending.set(false);
            }
        });
        return true;
    }
}
