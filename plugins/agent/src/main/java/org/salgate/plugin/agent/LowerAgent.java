package org.salgate.plugin.agent;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.salgate.client.HelloRefusedException;
import org.salgate.client.SalClient;
import org.salgate.client.SalException;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.model.ErrorCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection to a lower agent. Requests go over one {@link SalClient}; when it closes (the
 * lower agent stopped, or a request timed out) requests fail at once, without waiting, and one
 * caller at a time reconnects, at most once per retry interval, so that an agent that is gone costs
 * the upper agent's threads no waiting beyond one connection attempt per interval. Thread-safe.
 */
final class LowerAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LowerAgent.class);

    private final String protocolName;
    private final RelayConfig config;
    private final Object lock = new Object();
    private volatile SalClient client;
    private boolean connecting;
    private boolean closed;
    private long nextAttemptNanos;
    private String lastFailure = "";

    private LowerAgent(String protocolName, RelayConfig config, SalClient client) {
        this.protocolName = protocolName;
        this.config = config;
        this.client = client;
    }

    /**
     * Connects to the lower agent.
     *
     * @throws PluginException saying why it cannot be reached
     */
    static LowerAgent connect(String protocolName, RelayConfig config) throws PluginException {
        try {
            return new LowerAgent(protocolName, config, newClient(protocolName, config));
        } catch (IOException | RuntimeException e) {
            throw new PluginException(cannotReach(config, e), e);
        }
    }

    /** The lower agent's address, for messages. */
    String address() {
        return config.address();
    }

    /**
     * Sends a request over the current connection, reconnecting first when it is due, and waits for
     * the answer.
     *
     * @param what what is asked, for the message when it fails, such as {@code the read of DUMMY_0}
     * @throws SensorDisconnectedException when the lower agent is unreachable or does not answer in time
     * @throws PluginException when it refuses the request
     */
    <T> T call(String what, Function<SalClient, CompletableFuture<T>> request) throws PluginException {
        SalClient c = connected();
        try {
            // The client times the request out itself; this bound only guards against a lost answer.
            return request.apply(c).get(config.timeout().toMillis() * 2 + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PluginException("interrupted while waiting for the lower agent at " + address());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SalException refused) {
                throw new PluginException("the lower agent at " + address() + " refused " + what + ": "
                        + refused.getMessage(), refused);
            }
            if (cause instanceof TimeoutException) {
                throw lost(c, "it did not answer " + what + " within " + config.timeout().toMillis() + " ms");
            }
            throw lost(c, "the connection failed during " + what + ": " + message(cause));
        } catch (TimeoutException e) {
            throw lost(c, "it did not answer " + what + " within " + config.timeout().toMillis() + " ms");
        }
    }

    private SalClient connected() throws PluginException {
        SalClient c = client;
        if (c != null && c.isOpen()) {
            return c;
        }
        synchronized (lock) {
            if (closed) {
                throw new PluginException("protocol " + protocolName + " is closed");
            }
            c = client;
            if (c != null && c.isOpen()) {
                return c;
            }
            if (c != null) {
                client = null;
                lastFailure = "the connection closed";
                nextAttemptNanos = System.nanoTime();
                LOG.warn("Protocol {} lost its connection to the lower agent at {}; its sensors fail until it is back.",
                        protocolName, address());
            }
            if (connecting || System.nanoTime() - nextAttemptNanos < 0) {
                throw unreachable();
            }
            connecting = true;
        }
        SalClient fresh = null;
        String failure = null;
        try {
            fresh = newClient(protocolName, config);
        } catch (IOException | RuntimeException e) {
            failure = explain(config, e);
        }
        synchronized (lock) {
            connecting = false;
            if (fresh != null && !closed) {
                client = fresh;
                LOG.info("Protocol {} is connected again to the lower agent at {}.", protocolName, address());
                return fresh;
            }
            if (fresh != null) {
                fresh.close();
                throw new PluginException("protocol " + protocolName + " is closed");
            }
            lastFailure = failure;
            nextAttemptNanos = System.nanoTime() + config.retry().toNanos();
            throw unreachable();
        }
    }

    /** The relayed sensors are disconnected while their agent cannot be reached. */
    private SensorDisconnectedException unreachable() {
        return new SensorDisconnectedException("the lower agent at " + address() + " is unreachable (" + lastFailure
                + "); protocol " + protocolName + " retries every " + config.retry().toMillis() + " ms");
    }

    /** Drops a connection that failed, so that the next request reconnects. */
    private SensorDisconnectedException lost(SalClient c, String why) {
        synchronized (lock) {
            if (client == c) {
                client = null;
                lastFailure = why;
                nextAttemptNanos = System.nanoTime();
            }
        }
        c.close();
        return new SensorDisconnectedException("the lower agent at " + address() + " is not answering: " + why);
    }

    @Override
    public void close() {
        SalClient c;
        synchronized (lock) {
            closed = true;
            c = client;
            client = null;
        }
        if (c != null) {
            c.close();
        }
    }

    private static SalClient newClient(String protocolName, RelayConfig config) throws IOException {
        return SalClient.builder()
                .transport(config.transport())
                .codec(config.codec())
                .host(config.host())
                .port(config.port())
                .clientName("salgate-relay:" + protocolName)
                .connectTimeout(config.timeout())
                .requestTimeout(config.timeout())
                .tls(config.tls())
                .token(config.token())
                .connect();
    }

    private static String cannotReach(RelayConfig config, Throwable e) {
        return "cannot reach the lower agent at " + config.address() + " over " + config.transport() + ": "
                + explain(config, e);
    }

    /** Why a connection failed, with the relay's own parameters where the client's words name its options. */
    private static String explain(RelayConfig config, Throwable e) {
        String why = message(e);
        if (e instanceof HelloRefusedException refused && refused.code() == ErrorCode.UNAUTHENTICATED) {
            return why + " (a relay presents the token of its parameter " + RelayConfig.TOKEN_FILE + " or "
                    + RelayConfig.TOKEN_ENV + (config.token().isEmpty() ? ", and this one has neither)" : ")");
        }
        if (config.tls() == null && why.contains("TLS")) {
            return why + " (a relay connects with TLS when given the parameter " + RelayConfig.TLS_CA + ", "
                    + RelayConfig.TLS_PIN + " or " + RelayConfig.TLS + "=" + RelayConfig.TLS_SYSTEM + ")";
        }
        return why;
    }

    static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
