package org.salgate.discovery;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import javax.jmdns.JmDNS;
import javax.jmdns.ServiceInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agents on the LAN over mDNS/DNS-SD (JmDNS), as SAL announced them: service type
 * {@value #SERVICE_TYPE}, the instance named after the agent id, TXT records {@code agent},
 * {@code transport}, {@code codec}, {@code tls} and {@code tokens} ({@code true} or {@code false}:
 * whether clients must connect with TLS, and present a token) and {@code version} (of these TXT
 * keys, 2; version 1 had no {@code tls} and {@code tokens}, and a browser reports them unknown for
 * an agent that does not announce them).
 */
public final class Discovery {

    /** The DNS-SD service type of salgate agents. */
    public static final String SERVICE_TYPE = "_sal._tcp.local.";
    /** The version of the TXT record layout. */
    public static final String TXT_VERSION = "2";

    private static final Logger LOG = LoggerFactory.getLogger(Discovery.class);

    private Discovery() {}

    /** A running announcement; {@link #close()} withdraws it (a goodbye packet) and stops the responder. */
    public static final class Announcement implements AutoCloseable {
        private final JmDNS jmdns;
        private final ServiceInfo info;

        private Announcement(JmDNS jmdns, ServiceInfo info) {
            this.jmdns = jmdns;
            this.info = info;
        }

        /** The instance name it ended up with (mDNS renames on a clash, e.g. {@code gw (2)}). */
        public String name() {
            return info.getName();
        }

        @Override
        public void close() {
            try {
                jmdns.unregisterAllServices();
                jmdns.close();
            } catch (IOException e) {
                LOG.warn("the mDNS responder did not close cleanly: {}", e.getMessage());
            }
        }
    }

    /**
     * Announces an agent on the interface with address {@code address} (null: JmDNS picks one).
     *
     * @param tls whether the agent serves TLS only
     * @param tokens whether the agent requires a token of its clients
     * @throws IOException when the mDNS socket cannot be opened on that interface
     */
    public static Announcement announce(InetAddress address, String agentId, String transport, String codec, int port,
                                        boolean tls, boolean tokens) throws IOException {
        return announce(address, agentId, port, Map.of("agent", agentId, "transport", transport, "codec", codec,
                "tls", Boolean.toString(tls), "tokens", Boolean.toString(tokens), "version", TXT_VERSION));
    }

    private static Announcement announce(InetAddress address, String agentId, int port, Map<String, String> txt)
            throws IOException {
        // Each responder needs a host name of its own: two on one machine under the machine's name
        // would contest it, and a browser would not see the other's records.
        JmDNS jmdns = JmDNS.create(address, hostLabel("salgate-" + agentId));
        ServiceInfo info = ServiceInfo.create(SERVICE_TYPE, agentId, port, 0, 0, txt);
        try {
            jmdns.registerService(info);
        } catch (IOException | RuntimeException e) {
            jmdns.close();
            throw e;
        }
        LOG.info("announced as '{}' ({}) on {} port {}", info.getName(), SERVICE_TYPE, jmdns.getInetAddress(), port);
        return new Announcement(jmdns, info);
    }

    /**
     * Lists the agents that answer within {@code wait}, by agent id, on the interface with address
     * {@code address} (null: JmDNS picks one).
     *
     * @throws IOException when the mDNS socket cannot be opened on that interface
     */
    public static List<FoundAgent> browse(InetAddress address, Duration wait) throws IOException {
        try (JmDNS jmdns = JmDNS.create(address, hostLabel("salgate-browser-" + ProcessHandle.current().pid()))) {
            List<FoundAgent> found = new ArrayList<>();
            for (ServiceInfo s : jmdns.list(SERVICE_TYPE, wait.toMillis())) {
                String[] hosts = s.getHostAddresses();
                found.add(new FoundAgent(txt(s, "agent", s.getName()), txt(s, "transport", "?"), txt(s, "codec", "?"),
                        hosts.length > 0 ? hosts[0] : s.getServer(), s.getPort(), flag(s, "tls"), flag(s, "tokens")));
            }
            found.sort(Comparator.comparing(FoundAgent::agentId).thenComparing(FoundAgent::host));
            return found;
        }
    }

    /** A DNS label from {@code s}: letters, digits and hyphens, at most 63 characters. */
    static String hostLabel(String s) {
        String label = s.replaceAll("[^A-Za-z0-9-]", "-");
        return label.length() > 63 ? label.substring(0, 63) : label;
    }

    /** A true/false TXT record; null when the agent does not announce it (TXT version 1) or says something else. */
    private static Boolean flag(ServiceInfo s, String key) {
        String v = s.getPropertyString(key);
        return "true".equals(v) ? Boolean.TRUE : "false".equals(v) ? Boolean.FALSE : null;
    }

    private static String txt(ServiceInfo s, String key, String fallback) {
        String v = s.getPropertyString(key);
        return v == null || v.isEmpty() ? fallback : v;
    }
}
