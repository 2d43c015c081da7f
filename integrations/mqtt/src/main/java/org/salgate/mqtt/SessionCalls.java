package org.salgate.mqtt;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.salgate.model.Result;

/**
 * Calls of a bridge on its in-process session, awaited: what the MQTT bridge and the InfluxDB
 * writer share to talk to the agent as a client would.
 */
public final class SessionCalls {

    /** How long a bridge waits for the agent's answer to one call. */
    public static final long TIMEOUT_S = 30;

    private SessionCalls() {}

    /**
     * Waits for {@code f}.
     *
     * @param what the call, for the error message ("listing sensors")
     * @param who the bridge, for the error message ("the MQTT bridge")
     * @throws IOException when the call failed, timed out or was interrupted, saying which
     */
    public static <T> T await(CompletableFuture<T> f, String what, String who) throws IOException {
        try {
            return f.get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException(who + "'s session failed on " + what + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("the agent did not answer " + what + " within " + TIMEOUT_S + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for " + what, e);
        }
    }

    /**
     * The agent's answer as the {@code type} expected.
     *
     * @throws IOException when the agent refused the call or answered something else
     */
    public static <T extends Result> T expect(Result r, Class<T> type, String what) throws IOException {
        if (type.isInstance(r)) {
            return type.cast(r);
        }
        if (r instanceof Result.Failure f) {
            throw new IOException("the agent refused " + what + ": " + f.message() + " (" + f.code() + ")");
        }
        throw new IOException("the agent answered " + what + " with an unexpected " + r.getClass().getSimpleName());
    }
}
