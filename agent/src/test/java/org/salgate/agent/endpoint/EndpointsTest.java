package org.salgate.agent.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.salgate.plugin.spi.Endpoint;

class EndpointsTest {

    private final Endpoints endpoints = Endpoints.standard();

    @Test
    void parsesTypeAndAddress() throws Exception {
        Endpoint os = endpoints.parse("os");
        assertEquals("os", os.type());
        assertEquals("", os.address());
        Endpoint lab = endpoints.parse(" virtual:lab:3 ");
        assertEquals("virtual", lab.type());
        assertEquals("lab:3", lab.address());
        assertEquals("virtual:lab:3", lab.spec());
    }

    @Test
    void unknownTypeIsAClearErrorListingTheKnownOnes() {
        EndpointException e = assertThrows(EndpointException.class, () -> endpoints.parse("serial:/dev/ttyS0"));
        assertTrue(e.getMessage().contains("'serial'") && e.getMessage().contains("os, virtual"), e.getMessage());
        assertThrows(EndpointException.class, () -> endpoints.parse(""));
        assertThrows(EndpointException.class, () -> endpoints.parse("os:cpu0"));
    }

    @Test
    void agentEndpointNeedsTheLowerAgentsAddress() throws Exception {
        assertEquals("agent:10.0.0.2:7431", endpoints.parse("agent:10.0.0.2:7431").spec());
        EndpointException e = assertThrows(EndpointException.class, () -> endpoints.parse("agent"));
        assertTrue(e.getMessage().contains("agent:host:port"), e.getMessage());
    }

    @Test
    void newTypesCanBeRegisteredOnce() throws Exception {
        EndpointFactory serial = new EndpointFactory() {
            @Override
            public String type() {
                return "serial";
            }

            @Override
            public Endpoint create(String address) {
                return new SimpleEndpoint("serial", address);
            }
        };
        endpoints.register(serial);
        assertEquals("serial:/dev/ttyS0", endpoints.parse("serial:/dev/ttyS0").spec());
        assertThrows(IllegalArgumentException.class, () -> endpoints.register(serial));
    }
}
