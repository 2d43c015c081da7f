package org.salgate.agent.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.plugin.spi.Endpoint;

class EndpointsTest {

    private final Endpoints endpoints = Endpoints.standard(RelayTargets.of(List.of("10.0.0.2:7431", "[::1]:7432")));

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

    @Test
    void agentEndpointsOutsideTheRelayTargetsAreRefusedAlikeWhateverTheyName() throws Exception {
        assertEquals("agent:[::1]:7432", endpoints.parse("agent:[::1]:7432").spec());
        String refusal = "is not an allowed relay target: this agent connects only to the HOST:PORT entries its "
                + "operator gives with --relay-allow";
        for (String spec : List.of("agent:10.0.0.2:7432", "agent:10.0.0.3:7431", "agent:127.0.0.1:22",
                "agent:10.0.0.2", "agent:localhost:7431")) {
            EndpointException e = assertThrows(EndpointException.class, () -> endpoints.parse(spec));
            assertTrue(e.getMessage().equals("endpoint '" + spec + "' " + refusal), e.getMessage());
        }
        EndpointException none = assertThrows(EndpointException.class,
                () -> Endpoints.standard().parse("agent:10.0.0.2:7431"));
        assertTrue(none.getMessage().contains(refusal), none.getMessage());
    }

    @Test
    void relayTargetsMustBeHostAndPort() {
        for (String bad : List.of("10.0.0.2", "10.0.0.2:0", "10.0.0.2:http", ":7431", "10.0.0.2:70000")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RelayTargets.of(List.of(bad)));
            assertTrue(e.getMessage().contains("'" + bad + "' is not HOST:PORT"), e.getMessage());
        }
    }
}
