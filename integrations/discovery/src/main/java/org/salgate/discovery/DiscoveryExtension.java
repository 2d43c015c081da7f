package org.salgate.discovery;

import java.net.InetAddress;
import org.salgate.agent.AgentExtension;

/** The agent's announcement on the LAN (see {@link Discovery}) as an agent extension. */
public final class DiscoveryExtension {

    private DiscoveryExtension() {
    }

    /**
     * Announces the agent once it listens, with its id, transport, codec, port and whether clients
     * need TLS and a token; the announcement is withdrawn when the agent stops.
     *
     * @param on the interface address to announce on, or null for the agent's listening address
     *           (or one the mDNS library chooses when the agent listens on all)
     */
    public static AgentExtension announcing(InetAddress on) {
        return agent -> {
            InetAddress listening = agent.address().getAddress();
            InetAddress address = on != null ? on : listening.isAnyLocalAddress() ? null : listening;
            return Discovery.announce(address, agent.agentId(), agent.transportName(), agent.codecName(),
                    agent.port(), agent.tls(), agent.requiresTokens());
        };
    }
}
