package org.salgate.transport;

import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A transport's calls into its {@link ServerHandler} or {@link ClientHandler}: what the handler
 * throws is logged, and the connection goes on.
 */
public final class HandlerCalls {

    private static final Logger LOG = LoggerFactory.getLogger(HandlerCalls.class);

    private HandlerCalls() {}

    /** Runs {@code call}, logging what it throws as the handler failing on {@code what} (such as "closing") of {@code of}. */
    public static void run(Runnable call, String what, Object of) {
        accept(Runnable::run, call, what, of);
    }

    /** As {@link #run}, giving {@code value} to {@code callback}. */
    public static <T> void accept(Consumer<T> callback, T value, String what, Object of) {
        try {
            callback.accept(value);
        } catch (RuntimeException e) {
            LOG.warn("the handler failed on {} of {}", what, of, e);
        }
    }
}
