package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BindPolicyTest {

    @Test
    void loopbackIsAlwaysAllowedWithoutAWarning() {
        for (String host : new String[] {"127.0.0.1", "localhost", "::1", "127.0.0.2"}) {
            BindPolicy p = BindPolicy.decide(host, false, false, false);
            assertTrue(p.allowed(), host);
            assertNull(p.message(), host);
        }
    }

    @Test
    void anotherAddressWithTlsAndTokensIsAllowedWithoutAWarning() {
        BindPolicy p = BindPolicy.decide("0.0.0.0", true, true, false);
        assertTrue(p.allowed());
        assertNull(p.message());
    }

    @Test
    void anotherAddressWithoutTlsOrTokensIsRefusedNamingTheFlag() {
        for (boolean[] given : new boolean[][] {{false, false}, {true, false}, {false, true}}) {
            BindPolicy p = BindPolicy.decide("0.0.0.0", given[0], given[1], false);
            assertFalse(p.allowed());
            assertTrue(p.message().startsWith("refusing to listen on 0.0.0.0 without "), p.message());
            assertTrue(p.message().endsWith("or add --insecure to run like this anyway"), p.message());
        }
        assertTrue(BindPolicy.decide("0.0.0.0", false, false, false).message().contains("without TLS and tokens"));
        assertTrue(BindPolicy.decide("0.0.0.0", true, false, false).message().contains("without tokens"));
        assertTrue(BindPolicy.decide("10.1.2.3", false, true, false).message().contains("without TLS"));
    }

    @Test
    void insecureAllowsAnotherAddressWithAWarning() {
        BindPolicy p = BindPolicy.decide("0.0.0.0", false, false, true);
        assertTrue(p.allowed());
        assertEquals("running insecure (--insecure): listening on 0.0.0.0 without TLS and tokens, so anyone who can "
                + "reach this port can read every sensor and change the platform", p.message());
    }
}
