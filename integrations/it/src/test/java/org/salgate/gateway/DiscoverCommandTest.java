package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.salgate.agent.Agent;
import org.salgate.client.cli.ClientMain;
import org.salgate.discovery.Discovery;

/** An agent announced on loopback is listed by {@code client.jar discover}. */
class DiscoverCommandTest {

    @Test
    void discoverListsAnAnnouncedAgent() throws Exception {
        try (Agent agent = Agent.builder().port(0).agentId("it-discover").dummySensors(1)
                .extension(a -> Discovery.announce(InetAddress.getLoopbackAddress(), a.agentId(), a.transportName(),
                        a.codecName(), a.port(), false, false)).start()) {
            String expected = "it-discover  " + agent.transportName();
            String listed = "";
            // An announcement is answered once its probing is over, a few seconds after it starts.
            for (int attempt = 0; attempt < 6 && !listed.contains(expected); attempt++) {
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                int code = ClientMain.execute(new PrintWriter(out), new PrintWriter(err), "discover", "--interface",
                        "127.0.0.1", "--wait", "3s");
                assertEquals(0, code, err.toString());
                listed = out.toString();
            }
            assertTrue(listed.contains(expected) && listed.contains("127.0.0.1") && listed.contains(" " + agent.port()),
                    listed);
        }
    }
}
