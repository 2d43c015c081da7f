/**
 * The endpoint layer: the ports sensors hang off. A PCML protocol names its endpoint as
 * {@code type} or {@code type:address}; {@link org.salgate.agent.endpoint.Endpoints} parses it
 * into an {@link org.salgate.plugin.spi.Endpoint} handed to the plugin, which together with the
 * plugin forms a logical port.
 *
 * <p>Built in: {@code os} (the machine), {@code virtual} (software sensors) and {@code agent}
 * ({@code agent:host:port}, another agent). New types plug in as an
 * {@link org.salgate.agent.endpoint.EndpointFactory} given to {@code AgentBuilder.endpoint(...)}.
 *
 * <p>Hierarchical agents: the {@code agent} endpoint is only an address here, because the agent
 * module must not depend on the client library. The plugin of type {@code agent}
 * ({@code salgate-plugin-agent}, which depends on the client) parses it, connects to the lower
 * agent, serves that agent's sensors as its own and forwards reads to it.
 */
package org.salgate.agent.endpoint;
