package org.salgate.plugin.agent;

import java.io.IOException;
import java.nio.file.Path;
import org.salgate.plugin.spi.PluginException;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.tls.TlsConfig;

/**
 * How a relay trusts its lower agent's TLS certificate, from the parameters {@code tlsCa} (a PEM
 * file of CA certificates; the host name is checked), {@code tlsPin} (the certificate's SHA-256
 * fingerprint) or {@code tls=system} (the JVM's CAs; the host name is checked), as the client's
 * {@code --tls-ca}, {@code --tls-pin} and {@code --tls}. None of them: no TLS.
 */
final class RelayTrust {

    private RelayTrust() {}

    /**
     * The client TLS config the parameters ask for, or null for none.
     *
     * @throws PluginException for more than one of them, an unknown {@code tls} value, an unreadable
     *     CA file or a malformed pin
     */
    static TlsConfig of(ProtocolConfig config) throws PluginException {
        String name = config.name();
        String system = trimmed(config, RelayConfig.TLS);
        String ca = trimmed(config, RelayConfig.TLS_CA);
        String pin = trimmed(config, RelayConfig.TLS_PIN);
        int given = (system != null ? 1 : 0) + (ca != null ? 1 : 0) + (pin != null ? 1 : 0);
        if (given > 1) {
            throw new PluginException("Protocol " + name + " takes one of tls, tlsCa and tlsPin, to say how it trusts"
                    + " the lower agent's certificate; it has " + given + ".");
        }
        if (system != null && !RelayConfig.TLS_SYSTEM.equals(system)) {
            throw new PluginException("Parameter tls of protocol " + name + " may only be '" + RelayConfig.TLS_SYSTEM
                    + "' (trust the system's CAs), not '" + system + "'; give tlsCa or tlsPin for another trust.");
        }
        if (pin != null) {
            try {
                return TlsConfig.clientPinned(pin);
            } catch (IllegalArgumentException e) {
                throw new PluginException("Parameter tlsPin of protocol " + name + ": " + e.getMessage() + ".");
            }
        }
        if (ca != null) {
            try {
                return TlsConfig.clientTrustingCa(Path.of(ca));
            } catch (IOException | IllegalArgumentException e) {
                throw new PluginException("Parameter tlsCa of protocol " + name + ": cannot read the CA file " + ca
                        + ": " + LowerAgent.message(e) + "; give a readable PEM file of the CA that signed the lower"
                        + " agent's certificate (or that certificate itself).", e);
            }
        }
        return system != null ? TlsConfig.clientTrustingSystem() : null;
    }

    private static String trimmed(ProtocolConfig config, String key) {
        String raw = config.parameters().get(key);
        return raw == null ? null : raw.trim();
    }
}
