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
 * @param tls whether it serves TLS only (TXT {@code tls}); null when it does not say (an agent announcing TXT version 1)
 * @param tokens whether it requires a token of its clients (TXT {@code tokens}); null when it does not say
 */
public record FoundAgent(String agentId, String transport, String codec, String host, int port, Boolean tls,
                         Boolean tokens) {
    public FoundAgent {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(host, "host");
    }
}
