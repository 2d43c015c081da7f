package org.salgate.discovery;

import java.util.Objects;

/**
 * An agent found on the LAN.
 *
 * @param agentId its id (TXT {@code agent})
 * @param transport the transport its clients connect with (TXT {@code transport})
 * @param codec the codec its clients use (TXT {@code codec})
 * @param host an address it announced
 * @param port its port
 */
public record FoundAgent(String agentId, String transport, String codec, String host, int port) {
    public FoundAgent {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(host, "host");
    }
}
