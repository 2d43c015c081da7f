package org.salgate.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.discovery.Discovery;

/** {@code discover} over real multicast on the loopback interface: its formats, and what an agent needs. */
@Timeout(90)
class DiscoverOutputTest {

    private static final String AGENT = "cli-discover-test";

    @Test
    void discoverSaysWhetherAnAgentNeedsTlsAndTokensAsATableAndAsJson() throws Exception {
        try (Discovery.Announcement a = Discovery.announce(InetAddress.getLoopbackAddress(), AGENT, "netty",
                "protobuf", 8020, true, false)) {
            JsonNode agent = null;
            // An announcement is answered once its probing is over, a few seconds after it starts.
            for (int attempt = 0; attempt < 6 && agent == null; attempt++) {
                for (JsonNode n : new ObjectMapper().readTree(discover("--output", "json"))) {
                    if (n.get("agent").asText().equals(AGENT)) {
                        agent = n;
                    }
                }
            }
            assertTrue(agent != null, "the agent was not discovered");
            assertEquals("{\"agent\":\"" + AGENT + "\",\"transport\":\"netty\",\"codec\":\"protobuf\","
                    + "\"address\":\"127.0.0.1\",\"port\":8020,\"tls\":true,\"tokens\":false}", agent.toString());

            String table = discover();
            assertTrue(table.startsWith("AGENT "), table);
            assertTrue(table.lines().anyMatch(l -> l.startsWith(AGENT + " ") && l.matches(".* 8020 +yes +no$")),
                    table);
        }
    }

    private static String discover(String... format) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = new String[5 + format.length];
        System.arraycopy(new String[] {"discover", "--interface", "127.0.0.1", "--wait", "3s"}, 0, args, 0, 5);
        System.arraycopy(format, 0, args, 5, format.length);
        int code = ClientMain.execute(new PrintWriter(out), new PrintWriter(err), args);
        assertEquals(ExitCodes.OK, code, err.toString());
        return out.toString();
    }
}
