package org.salgate.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Announcing and browsing over real multicast on the loopback interface. */
class DiscoveryTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /** Browses until an agent with this id answers; an announcement is visible once its probing is over (a few seconds). */
    static List<FoundAgent> browseFor(String agentId) throws Exception {
        List<FoundAgent> found = List.of();
        for (int attempt = 0; attempt < 6; attempt++) {
            found = Discovery.browse(LOOPBACK, Duration.ofSeconds(3));
            if (found.stream().anyMatch(f -> f.agentId().equals(agentId))) {
                return found;
            }
        }
        return found;
    }

    @Test
    void anAnnouncedAgentIsFoundWithItsTransportCodecAndPort() throws Exception {
        try (Discovery.Announcement a = Discovery.announce(LOOPBACK, "disco-test", "netty", "json", 8010)) {
            List<FoundAgent> found = browseFor("disco-test");
            assertEquals(List.of(new FoundAgent("disco-test", "netty", "json", "127.0.0.1", 8010)),
                    found.stream().filter(f -> f.agentId().equals("disco-test")).toList(), found.toString());
        }
    }

    @Test
    void aWithdrawnAnnouncementIsNotFound() throws Exception {
        Discovery.Announcement a = Discovery.announce(LOOPBACK, "disco-gone", "rmi", "protobuf", 8011);
        assertFalse(browseFor("disco-gone").isEmpty());
        a.close();
        List<FoundAgent> after = Discovery.browse(LOOPBACK, Duration.ofSeconds(3));
        assertEquals(List.of(), after.stream().filter(f -> f.agentId().equals("disco-gone")).toList());
    }

    @Test
    void hostLabelsKeepToWhatDnsAllows() {
        assertEquals("salgate-gw-1-site", Discovery.hostLabel("salgate-gw@1.site"));
        assertEquals(63, Discovery.hostLabel("x".repeat(100)).length());
    }
}
