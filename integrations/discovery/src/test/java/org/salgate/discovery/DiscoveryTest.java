package org.salgate.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.jmdns.JmDNS;
import javax.jmdns.ServiceInfo;
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
    void anAnnouncedAgentIsFoundWithItsTransportCodecPortAndWhetherItNeedsTlsAndTokens() throws Exception {
        try (Discovery.Announcement a = Discovery.announce(LOOPBACK, "disco-test", "netty", "json", 8010, true,
                false)) {
            List<FoundAgent> found = browseFor("disco-test");
            assertEquals(List.of(new FoundAgent("disco-test", "netty", "json", "127.0.0.1", 8010, true, false)),
                    found.stream().filter(f -> f.agentId().equals("disco-test")).toList(), found.toString());
        }
    }

    @Test
    void anAgentAnnouncingTxtVersionOneIsFoundWithTlsAndTokensUnknown() throws Exception {
        JmDNS old = JmDNS.create(LOOPBACK, "salgate-disco-old");
        try {
            old.registerService(ServiceInfo.create(Discovery.SERVICE_TYPE, "disco-old", 8012, 0, 0,
                    Map.of("agent", "disco-old", "transport", "mina", "codec", "protobuf", "version", "1")));
            List<FoundAgent> found = browseFor("disco-old");
            assertEquals(List.of(new FoundAgent("disco-old", "mina", "protobuf", "127.0.0.1", 8012, null, null)),
                    found.stream().filter(f -> f.agentId().equals("disco-old")).toList(), found.toString());
        } finally {
            old.unregisterAllServices();
            old.close();
        }
    }

    @Test
    void aWithdrawnAnnouncementIsNotFound() throws Exception {
        Discovery.Announcement a = Discovery.announce(LOOPBACK, "disco-gone", "rmi", "protobuf", 8011, false, true);
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
