package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

class OptionsTlsSideTest {

    @Test
    void serverOptionsRefuseAClientTlsConfigAndClientOptionsAServerOne() {
        TlsConfig server = TlsConfig.server(Certificates.selfSigned(List.of("127.0.0.1"), 1));
        TlsConfig client = TlsConfig.clientTrustingSystem();
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.builder().tls(client).build());
        assertThrows(IllegalArgumentException.class, () -> ClientOptions.builder().port(1).tls(server).build());
    }
}
