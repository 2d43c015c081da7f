package org.salgate.transport.http.rest;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;

/** The sessions' budget over the HTTP transport, its REST calls included. */
class HttpSessionLimitsTest extends AbstractSessionLimitsTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("http");
    }

    @Test
    @Timeout(60)
    void aRestCallPastMaxSessionsIsAnswered503OverloadedWhileTheWebSocketClientKeepsBeingServed() throws Exception {
        Agent agent = agent(o -> o.maxSessions(1));
        SalClient served = client(agent, "served");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + agent.port() + "/api/sensors")).timeout(Duration.ofSeconds(20))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(503, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"OVERLOADED\"") && response.body().contains("maximum of 1 session;"),
                response.body());
        assertServed(served);
    }
}
