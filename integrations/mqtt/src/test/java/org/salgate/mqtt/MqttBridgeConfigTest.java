package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/** How the bridge's configuration decides whom to trust for a broker. */
class MqttBridgeConfigTest {

    @Test
    void aPlainBrokerHasNoTlsAndRefusesTlsSettings() {
        assertNull(MqttBridgeConfig.builder("tcp://127.0.0.1:1883").build().tls());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MqttBridgeConfig.builder("tcp://127.0.0.1:1883").tls(TlsConfig.clientTrustingSystem()));
        assertTrue(e.getMessage().contains("ssl://"), e.getMessage());
    }

    @Test
    void aTlsBrokerIsTrustedThroughTheSystemStoreUnlessCasAreGiven() {
        TlsConfig system = MqttBridgeConfig.builder("ssl://broker:8883").build().tls();
        assertEquals("TLS trusting the system's CAs", system.toString());
        assertTrue(system.verifiesHostname());

        TlsConfig own = TlsConfig.clientTrusting(List.of(Certificates.selfSigned(List.of("broker"), 1).certificate()),
                "TLS trusting the test CA");
        assertSame(own, MqttBridgeConfig.builder("ssl://broker:8883").tls(own).build().tls());
    }

    @Test
    void aServersTlsConfigIsRefused() {
        TlsConfig server = TlsConfig.server(Certificates.selfSigned(List.of("localhost"), 1));
        assertThrows(IllegalArgumentException.class, () -> MqttBridgeConfig.builder("ssl://broker:8883").tls(server));
    }
}
