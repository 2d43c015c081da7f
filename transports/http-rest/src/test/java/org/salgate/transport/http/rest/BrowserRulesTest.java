package org.salgate.transport.http.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/** The hosts of Host headers and options, as the browser rules compare them. */
class BrowserRulesTest {

    @Test
    void aHostIsLowerCasedWithoutItsPortOrTrailingDotAndAddressesAreCanonical() {
        assertEquals("gateway.example", BrowserRules.host("Gateway.Example.:8080"));
        assertEquals("my_host", BrowserRules.host("my_host"));
        assertEquals("127.0.0.1", BrowserRules.host("127.0.0.1:"));
        assertEquals("::1", BrowserRules.host("[0:0:0:0:0:0:0:1]:8443"));
        assertEquals("fe80::1", BrowserRules.host("[fe80::1%eth0]"));
        assertEquals("2001:db8::7", BrowserRules.host("2001:DB8:0:0:0:0:0:7"), "a bare address, as a host option");
    }

    @Test
    void aMalformedHostIsNull() {
        for (String bad : List.of("", ":80", ".", "a b", "host:abc", "host:123456", "[not-an-address]:80", "[::1",
                "evil.example/path", "user@evil.example")) {
            assertNull(BrowserRules.host(bad), bad);
        }
    }

    @Test
    void anAllowedWildcardServesOneLabelBeforeItsSuffixOnly() {
        BrowserRules rules = new BrowserRules(ServerOptions.builder()
                .properties(Map.of(HttpTransportProvider.ALLOW_HOSTS, "*.example.com")).build());
        assertNull(status(rules, "a.example.com:8080"));
        assertNull(status(rules, "localhost"), "bound to loopback, the loopback names are served");
        for (String foreign : List.of("example.com", "a.b.example.com", ".example.com", "a.example.com.evil")) {
            assertEquals(HttpResponseStatus.MISDIRECTED_REQUEST, status(rules, foreign), foreign);
        }
    }

    @Test
    void aServerOverTlsServesTheNamesOfItsCertificate() {
        TlsConfig tls = TlsConfig.server(Certificates.selfSigned(List.of("gateway.example", "192.0.2.7"), 1));
        BrowserRules rules = new BrowserRules(ServerOptions.builder().tls(tls).build());
        assertNull(status(rules, "gateway.example"));
        assertNull(status(rules, "192.0.2.7:8443"));
        assertEquals(HttpResponseStatus.MISDIRECTED_REQUEST, status(rules, "other.example"));
    }

    /** The status of the refusal of a GET naming {@code host}, or null when let through. */
    private static HttpResponseStatus status(BrowserRules rules, String host) {
        DefaultFullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/api/sensors");
        request.headers().set(HttpHeaderNames.HOST, host);
        FullHttpResponse refusal = rules.refusal(request, new EmbeddedChannel());
        request.release();
        if (refusal == null) {
            return null;
        }
        refusal.release();
        return refusal.status();
    }

    @Test
    void aMalformedAllowedHostOrOriginStopsTheServerNamingIt() {
        IllegalArgumentException host = assertThrows(IllegalArgumentException.class, () -> new BrowserRules(
                ServerOptions.builder().properties(Map.of(HttpTransportProvider.ALLOW_HOSTS, "ok.example, a b")).build()));
        assertTrue(host.getMessage().contains("'a b'"), host.getMessage());
        IllegalArgumentException origin = assertThrows(IllegalArgumentException.class, () -> new BrowserRules(
                ServerOptions.builder().properties(Map.of(HttpTransportProvider.ALLOW_ORIGINS, "https://x.example/path"))
                        .build()));
        assertTrue(origin.getMessage().contains("'https://x.example/path'"), origin.getMessage());
    }
}
