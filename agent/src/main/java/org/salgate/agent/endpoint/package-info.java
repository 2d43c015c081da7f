/**
 * The endpoint layer: the ports sensors hang off. A PCML protocol names its endpoint as
 * {@code type} or {@code type:address}; {@link org.salgate.agent.endpoint.Endpoints} parses it
 * into an {@link org.salgate.plugin.spi.Endpoint} handed to the plugin, which together with the
 * plugin forms a logical port.
 *
 * <p>Built in: {@code os} (the machine) and {@code virtual} (software sensors). New types plug in
 * as an {@link org.salgate.agent.endpoint.EndpointFactory} given to
 * {@code AgentBuilder.endpoint(...)}.
 *
 * <p>Extension point for hierarchical agents: an {@code agent} endpoint
 * ({@code agent:host:port[/transport]}) would be an {@code EndpointFactory} whose endpoint holds
 * a client connection to the lower agent, paired with a plugin type that lists that agent's
 * sensors as its own and forwards execute and stream calls. It is not implemented here because
 * the agent module must not depend on the client library; it belongs in a module that depends on
 * both.
 */
package org.salgate.agent.endpoint;
