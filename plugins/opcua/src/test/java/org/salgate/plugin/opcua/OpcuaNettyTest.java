package org.salgate.plugin.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.Version;
import java.net.ServerSocket;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.junit.jupiter.api.Test;

/**
 * Milo 1.1.2 is built on Netty 4.1; this project pins Netty 4.2 (and BouncyCastle 1.82), and the
 * driver runs on them, with no second Netty: one family on the class path, and Milo's transport
 * dialling through it; Milo's server SDK (test scope, the fast tests' server) serves on it too. (The
 * devices tests, and the agent jar, run the whole driver on the same.)
 */
class OpcuaNettyTest {

    @Test
    void miloRunsOnTheProjectsNetty42WithOneNettyOnTheClassPath() throws Exception {
        assertTrue(Version.identify().values().stream().allMatch(v -> v.artifactVersion().startsWith("4.2.")),
                "Netty artifacts: " + Version.identify());
        assertEquals("1.82", new org.bouncycastle.jce.provider.BouncyCastleProvider().getVersionStr());
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        ExecutionException e = assertThrows(ExecutionException.class, () -> DiscoveryClient
                .getEndpoints("opc.tcp://127.0.0.1:" + closed + "/").get(30, TimeUnit.SECONDS));
        String status = UaException.extract(e).map(u -> OpcuaProtocol.statusName(u.getStatusCode())).orElse(e.toString());
        assertEquals("Bad_ConnectionRejected", status, "Milo's Netty 4.2 transport dialled a closed port");
    }

    @Test
    void milosServerSdkServesOnTheSameNetty42() throws Exception {
        assertEquals(1, DiscoveryClient.getEndpoints(MiloTestServer.shared().url()).get(30, TimeUnit.SECONDS).size(),
                "the in-JVM server's one endpoint (None, on 127.0.0.1)");
        assertTrue(Version.identify().values().stream().allMatch(v -> v.artifactVersion().startsWith("4.2.")),
                "Netty artifacts with milo-sdk-server: " + Version.identify());
    }
}
