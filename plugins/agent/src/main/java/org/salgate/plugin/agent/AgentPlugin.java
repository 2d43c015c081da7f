package org.salgate.plugin.agent;

import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/**
 * The {@code agent} plugin: SAL's logical port onto another agent. A protocol of this type, bound
 * to the endpoint {@code agent:host:port}, connects to that (lower) agent with the client library
 * and serves its sensors as its own, each under the id {@code <prefix><lower id>}, with the lower
 * agent's SensorML and command descriptions. Every read, one-off or streamed, is forwarded to the
 * lower agent: one round trip per reading.
 *
 * <p>Parameters: {@code transport} (default {@code netty}) and {@code codec} (default
 * {@code protobuf}) the lower agent serves; {@code prefix} (default the protocol name and a dot, as
 * in {@code lab.DUMMY_0}; may be empty); {@code timeoutMs} for connecting and for each request
 * (default 5000); {@code retryMs} between reconnection attempts once the lower agent is gone
 * (default 5000). For a lower agent with TLS, one of {@code tlsCa} (a PEM file of the CA that
 * signed its certificate), {@code tlsPin} (its certificate's SHA-256 fingerprint) or
 * {@code tls=system} (the JVM's CAs); for one with tokens, {@code tokenFile} (a file holding the
 * token) or {@code tokenEnv} (the name of an environment variable holding it), never the token
 * itself, since the PCML is shown to admins. The sensors are those the lower agent has when the protocol opens; remove and
 * add the protocol again to pick up later changes.
 */
public final class AgentPlugin implements SensorPlugin {

    public static final String TYPE = "agent";
    public static final String ENDPOINT_TYPE = "agent";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "Another agent's sensors, relayed: a logical port onto a lower agent";
    }

    @Override
    public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
        return RelayProtocol.open(config.name(), RelayConfig.of(config, context.endpoint()));
    }
}
