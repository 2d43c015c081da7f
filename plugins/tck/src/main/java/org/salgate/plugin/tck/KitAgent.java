package org.salgate.plugin.tck;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.salgate.agent.Agent;
import org.salgate.agent.AgentBuilder;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.TransportServer;

/**
 * An agent the suite starts in this JVM: the real {@link Agent}, listening nowhere, whose clients
 * are in-process sessions ({@link Agent#openSession}) that go through the same request path as a
 * remote client's.
 */
public final class KitAgent implements AutoCloseable {

    private final Agent agent;
    private final List<KitSession> sessions = new CopyOnWriteArrayList<>();

    private KitAgent(Agent agent) {
        this.agent = agent;
    }

    /**
     * Starts an agent with {@code platform}, its plugins looked up on {@code plugins}, changed by
     * {@code configure} (device or relay allow lists).
     */
    static KitAgent start(PlatformConfig platform, ClassLoader plugins, Consumer<AgentBuilder> configure)
            throws IOException {
        AgentBuilder builder = Agent.builder().transport(new NoNetwork()).port(0).agentId("plugin-tck")
                .platform(platform).pluginClassLoader(plugins);
        configure.accept(builder);
        return new KitAgent(builder.start());
    }

    /** The agent itself. */
    public Agent agent() {
        return agent;
    }

    /** A new session that has completed its hello; closed with the agent. */
    public KitSession session() {
        KitSession s = KitSession.open(agent);
        sessions.add(s);
        return s;
    }

    @Override
    public void close() {
        sessions.forEach(KitSession::close);
        agent.close();
    }

    /** A transport that listens nowhere: the suite's sessions are in-process. */
    private static final class NoNetwork implements TransportProvider {
        @Override
        public String name() {
            return "in-process";
        }

        @Override
        public TransportServer createServer(ServerOptions options) {
            return new TransportServer() {
                @Override
                public void start(ServerHandler handler) {
                }

                @Override
                public InetSocketAddress localAddress() {
                    return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public TransportClient createClient(ClientOptions options) {
            throw new UnsupportedOperationException("the suite's agent is reached in-process only");
        }
    }
}
