package org.salgate.plugin.agent;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.salgate.agent.Agent;
import org.salgate.agent.AgentBuilder;
import org.salgate.agent.session.Tokens;
import org.salgate.client.SalClient;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.tls.TlsConfig;

/** Real agents on loopback (netty, port 0) and clients of them, all closed by {@link #close()}. */
final class RelayFixture implements AutoCloseable {

    static final int LOWER_SENSORS = 3;

    private final List<Runnable> open = new ArrayList<>();
    /** The lower agents' addresses, which upper agents are allowed to relay. */
    private final List<String> lowerAddresses = new ArrayList<>();

    /** A lower agent with {@value #LOWER_SENSORS} dummy sensors DUMMY_0.. on {@code port} (0: any). */
    Agent lowerAgent(int port) throws IOException {
        return lowerAgent(port, null, null);
    }

    /** A lower agent as {@link #lowerAgent(int)}, serving TLS with {@code tls} and admitting only {@code tokens}. */
    Agent lowerAgent(int port, TlsConfig tls, Tokens tokens) throws IOException {
        AgentBuilder builder = Agent.builder().transport("netty").port(port).tls(tls)
                .platform(new PlatformConfig(List.of(dummies(LOWER_SENSORS))));
        if (tokens != null) {
            builder.tokens(tokens);
        }
        Agent agent = builder.start();
        open.add(agent::close);
        lowerAddresses.add("127.0.0.1:" + agent.port());
        return agent;
    }

    /**
     * An upper agent with its own two dummy sensors DUMMY_0, DUMMY_1 and the given protocols, allowed
     * to relay the lower agents made so far.
     */
    Agent upperAgent(ProtocolConfig... more) throws IOException {
        List<ProtocolConfig> protocols = new ArrayList<>();
        protocols.add(dummies(2));
        protocols.addAll(List.of(more));
        Agent agent = Agent.builder().transport("netty").port(0).platform(new PlatformConfig(protocols))
                .relayTargets(lowerAddresses).start();
        open.add(agent::close);
        return agent;
    }

    /** An upper agent with two dummy sensors, allowed to relay only {@code targets}. */
    Agent upperAgentAllowing(List<String> targets) throws IOException {
        Agent agent = Agent.builder().transport("netty").port(0).platform(new PlatformConfig(List.of(dummies(2))))
                .relayTargets(targets).start();
        open.add(agent::close);
        return agent;
    }

    /** A PCML document with one protocol {@code lab} of type agent on {@code endpoint}. */
    static String pcml(String endpoint) {
        return "<platform xmlns=\"urn:salgate:pcml:1.0\"><protocol name=\"lab\" type=\"agent\" endpoint=\""
                + endpoint + "\"/></platform>";
    }

    /** A protocol relaying the agent on {@code port} under the prefix {@code lab.}. */
    static ProtocolConfig relay(int port, Map<String, String> parameters) {
        return new ProtocolConfig("lab", "agent", "agent:127.0.0.1:" + port, parameters);
    }

    SalClient client(Agent agent) throws IOException {
        return client(agent, null, "");
    }

    /** A client of {@code agent} over {@code tls} (null: plain) presenting {@code token}. */
    SalClient client(Agent agent, TlsConfig tls, String token) throws IOException {
        SalClient client = SalClient.builder().transport("netty").port(agent.port()).tls(tls).token(token).connect();
        open.add(client::close);
        return client;
    }

    private static ProtocolConfig dummies(int n) {
        return new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", Integer.toString(n)));
    }

    @Override
    public void close() {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).run();
        }
    }
}
