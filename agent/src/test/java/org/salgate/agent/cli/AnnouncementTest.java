package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.session.Tokens;
import org.salgate.agent.testing.AgentFixture;
import org.salgate.discovery.Discovery;
import org.salgate.discovery.FoundAgent;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;
import picocli.CommandLine;

/** What {@code --announce} tells the LAN: over real multicast on the loopback interface. */
@Timeout(60)
class AnnouncementTest {

    @Test
    void anAgentWithTlsAndTokensAnnouncesThatItNeedsBoth() throws Exception {
        AgentMain main = CommandLine.populateCommand(new AgentMain(), "--announce", "--announce-address", "127.0.0.1",
                "--agent-id", "announce-secured");
        try (AgentFixture agent = AgentFixture.start(AgentFixture.testPlatform(1, Map.of()), b -> {
            b.agentId("announce-secured")
                    .tls(TlsConfig.server(Certificates.selfSigned(List.of("localhost"), 1)))
                    .tokens(Tokens.parse(List.of("0123456789abcdef0123 admin"), "test"));
            try {
                main.gateway.apply(b, h -> BindPolicy.decide(h, true, true, false), Path.of("target"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        })) {
            FoundAgent found = browseFor("announce-secured");
            assertEquals(Boolean.TRUE, found.tls(), found.toString());
            assertEquals(Boolean.TRUE, found.tokens(), found.toString());
        }
    }

    /** Browses until the agent answers; an announcement is visible once its probing is over (a few seconds). */
    private static FoundAgent browseFor(String agentId) throws Exception {
        for (int attempt = 0; attempt < 6; attempt++) {
            for (FoundAgent f : Discovery.browse(InetAddress.getLoopbackAddress(), Duration.ofSeconds(3))) {
                if (f.agentId().equals(agentId)) {
                    return f;
                }
            }
        }
        throw new AssertionError("no agent " + agentId + " announced itself on loopback");
    }
}
