package org.salgate.metrics;

import java.util.function.Consumer;
import org.salgate.agent.AgentBuilder;
import org.salgate.agent.AgentExtension;

/**
 * The metrics endpoint as an agent extension: it registers the agent's own figures (streams,
 * readings skipped and dropped for slow clients, requests waiting, plugin read errors) and serves
 * them with what passes through the agent's sessions at {@code http://host:port/metrics}. The
 * endpoint follows the agent's own security: HTTPS with the agent's certificate when the agent
 * serves TLS, and a bearer token the agent admits when it requires tokens.
 */
public final class MetricsExtension {

    private MetricsExtension() {
    }

    /**
     * Adds the endpoint to an agent being built, and decorates its handler so that the sessions'
     * traffic is counted too.
     *
     * @param started given the endpoint once it listens (its port, when 0 was asked), or null
     */
    public static void addTo(AgentBuilder builder, GatewayMetrics metrics, String host, int port,
                             Consumer<MetricsServer> started) {
        builder.decorateHandler(metrics::instrument);
        builder.extension(endpoint(metrics, host, port, started));
    }

    /**
     * The extension alone, for an agent whose handler is decorated with
     * {@link GatewayMetrics#instrument} already.
     *
     * @param started given the endpoint once it listens (its port, when 0 was asked), or null
     */
    public static AgentExtension endpoint(GatewayMetrics metrics, String host, int port,
                                          Consumer<MetricsServer> started) {
        return agent -> {
            metrics.gauge("salgate.streams", "Streams set up or running", agent::streamCount);
            metrics.gauge("salgate.requests.queued", "Requests waiting for a worker", agent::queuedRequests);
            metrics.counter("salgate.readings.skipped", "Stream readings not taken because the client was not"
                    + " reading (slow-consumer policies block and disconnect)", () -> agent.streamTotals().skipped());
            metrics.gauge("salgate.streams.shared", "Shared streams open (each counted once, however many"
                    + " subscribers)", agent::sharedStreamCount);
            metrics.counter("salgate.stream.frames.encoded", "Stream frames encoded: one per reading of a client's"
                    + " own stream, one per reading and codec of a shared stream", agent::streamFramesEncoded);
            metrics.counter("salgate.readings.dropped", "Stream readings taken, then dropped oldest first because"
                    + " the client was not reading (slow-consumer policy drop-oldest)",
                    () -> agent.streamTotals().dropped());
            metrics.counters("salgate.plugin.read.errors", "Reads whose plugin failed (ERROR readings)", "sensor",
                    agent::readErrors);
            MetricsServer server = MetricsServer.start(host, port, metrics, agent.serverTls(), agent::admits);
            if (started != null) {
                started.accept(server);
            }
            return server;
        };
    }
}
