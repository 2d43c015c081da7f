package org.salgate.mqtt;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.salgate.model.Call;
import org.salgate.model.Result;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.wire.HelloReply;

/**
 * A bridge's in-process session on the agent, through which it talks to the agent as a client
 * would: what the MQTT bridge and the InfluxDB writer share. A call awaited here fails with an
 * {@link IOException} that names the bridge and the call.
 */
public final class AgentSession {

    /** Opens the in-process session on the agent; given by whoever runs the agent. */
    @FunctionalInterface
    public interface Opener {
        /** Opens a session whose pushed messages go to {@code sink}. */
        BridgeSession open(BridgeSession.Sink sink);
    }

    /** How long a bridge waits for the agent's answer to one call. */
    public static final long TIMEOUT_S = 30;

    private final String who;
    private volatile BridgeSession session;

    /** @param who the bridge, as error messages name it ("the MQTT bridge") */
    public AgentSession(String who) {
        this.who = who;
    }

    /**
     * Opens the session and says hello as {@code client}.
     *
     * @param codec the agent's codec, which the hello must name
     * @param credentials what the hello presents: the agent's in-process credentials
     * @throws IOException when the agent refuses the session or does not answer the hello
     */
    public void open(Opener opener, BridgeSession.Sink sink, String client, String codec, String credentials)
            throws IOException {
        session = opener.open(sink);
        HelloReply reply = await(session.hello(client, codec, credentials), "the hello");
        if (!reply.accepted()) {
            throw new IOException("the agent refused " + who + "'s session: " + reply.error());
        }
    }

    /** The bridge, as error messages name it. */
    public String who() {
        return who;
    }

    /** Whether the session was opened (calls before that have nowhere to go). */
    public boolean isOpened() {
        return session != null;
    }

    /**
     * Makes one call and awaits the answer of the {@code type} expected.
     *
     * @param what the call, for the error message ("listing sensors")
     * @throws IOException when the agent refused the call, answered something else, did not answer
     *                     in {@value #TIMEOUT_S} s, or the session failed
     */
    public <T extends Result> T call(Call call, Class<T> type, String what) throws IOException {
        Result r = await(session.call(call), what);
        if (type.isInstance(r)) {
            return type.cast(r);
        }
        if (r instanceof Result.Failure f) {
            throw new IOException("the agent refused " + what + ": " + f.message() + " (" + f.code() + ")");
        }
        throw new IOException("the agent answered " + what + " with an unexpected " + r.getClass().getSimpleName());
    }

    /** Sends a call without waiting for it; the agent's answer completes the future. Needs {@link #isOpened()}. */
    public CompletableFuture<Result> send(Call call) {
        return session.call(call);
    }

    /** Ends the session, which ends its streams on the agent; nothing if it was never opened. */
    public void close() {
        BridgeSession s = session;
        if (s != null) {
            s.closeByCaller();
        }
    }

    private <T> T await(CompletableFuture<T> f, String what) throws IOException {
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
}
